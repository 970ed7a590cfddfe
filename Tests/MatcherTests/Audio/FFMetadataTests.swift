import Testing

@testable import Matcher

@Suite("FFMetadata")
struct FFMetadataTests {
  @Test("Key=value lines give lower-cased keys; comments, sections and other lines are skipped")
  func lines() {
    let text = """
      ;FFMETADATA1
      TITLE=Battle Epic
      artist=Doug Kaufman
      # a comment
      not a tag
      =no key
      [STREAM]
      title=stream section
      """
    #expect(FFMetadata.tags(in: text) == ["title": "Battle Epic", "artist": "Doug Kaufman"])
  }

  @Test("Backslash escapes =, ;, #, backslash and a line break inside a value")
  func escapes() {
    let text = ";FFMETADATA1\ntitle=a\\=b\\;c\\#d\\\\e\\\nline2\ncomment=x=y\n"
    #expect(FFMetadata.tags(in: text) == ["title": "a=b;c#d\\e\nline2", "comment": "x=y"])
  }

  @Test("An escaped = belongs to the key; an empty value is kept; CRLF line ends work")
  func keysAndEnds() {
    #expect(FFMetadata.tags(in: "a\\=b=c\r\nempty=\r\n") == ["a=b": "c", "empty": ""])
    #expect(FFMetadata.tags(in: "") == [:])
  }
}
