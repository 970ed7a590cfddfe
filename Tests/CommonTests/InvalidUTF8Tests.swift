import Foundation
import Testing

@testable import Common

@Suite("InvalidUTF8")
struct InvalidUTF8Tests {
  @Test("UTF-8 text, multi-byte characters and an empty file have no invalid byte")
  func valid() {
    for text in ["", "a,b\nCafé,Ölund 東京 🎵\n"] { #expect(InvalidUTF8.first(in: Data(text.utf8)) == nil) }
  }

  @Test("The first byte that is not UTF-8 is found with its offset and line: Latin-1, a cut sequence, a stray byte")
  func invalid() {
    let head = Data("path,title\nx.ogg,Caf".utf8)
    #expect(InvalidUTF8.first(in: head + [0xE9, 0x0A]) == InvalidUTF8(byte: 0xE9, offset: head.count, line: 2))
    let cut = Data("a\nb\n東".utf8).dropLast()  // the last character's third byte is missing
    #expect(InvalidUTF8.first(in: Data(cut))?.line == 3)
    #expect(InvalidUTF8.first(in: Data([0x61, 0xFF]))?.hexByte == "0xFF")
  }
}
