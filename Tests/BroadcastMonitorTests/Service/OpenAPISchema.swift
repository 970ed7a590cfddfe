import Foundation
import Testing

/// Checks a JSON value against a schema of the API's OpenAPI document: `type` (one or a list, `null` among them),
/// `required`, `properties`, `items`, `enum` and `$ref` to `#/components/schemas/...`. What the API's tests need of
/// JSON Schema, nothing more: it returns every mismatch as a path and a reason.
struct OpenAPISchema {
  let document: [String: Any]

  init(text: String) throws {
    document = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
  }

  /// The schema of the 200 answer of `GET path`, as JSON.
  func responseSchema(path: String, status: String = "200") -> [String: Any]? {
    let paths = document["paths"] as? [String: Any]
    let get = (paths?[path] as? [String: Any])?["get"] as? [String: Any]
    var response = (get?["responses"] as? [String: Any])?[status] as? [String: Any]
    if let ref = response?["$ref"] as? String { response = resolve(ref) }
    let content = (response?["content"] as? [String: Any])?["application/json"] as? [String: Any]
    return content?["schema"] as? [String: Any]
  }

  /// What in `value` does not follow `schema`, as `path: reason` lines; empty when it follows it.
  func mismatches(_ value: Any, _ schema: [String: Any], at path: String = "$") -> [String] {
    if let ref = schema["$ref"] as? String {
      guard let target = resolve(ref) else { return ["\(path): unresolved \(ref)"] }
      return mismatches(value, target, at: path)
    }
    var problems: [String] = []
    if let type = schema["type"] {
      let types = (type as? [String]) ?? [(type as? String) ?? ""]
      if !types.contains(where: { Self.matches(value, type: $0) }) {
        return ["\(path): \(String(describing: value).prefix(80)) is not \(types.joined(separator: " or "))"]
      }
    }
    if let allowed = schema["enum"] as? [String], let text = value as? String, !allowed.contains(text) {
      problems.append("\(path): \(text) is not one of \(allowed)")
    }
    if let object = value as? [String: Any] {
      for key in schema["required"] as? [String] ?? [] where object[key] == nil {
        problems.append("\(path): required \(key) is missing")
      }
      for (key, property) in schema["properties"] as? [String: [String: Any]] ?? [:] {
        if let member = object[key] { problems += mismatches(member, property, at: "\(path).\(key)") }
      }
    }
    if let array = value as? [Any], let items = schema["items"] as? [String: Any] {
      for (index, element) in array.enumerated() { problems += mismatches(element, items, at: "\(path)[\(index)]") }
    }
    return problems
  }

  private func resolve(_ ref: String) -> [String: Any]? {
    var node: Any? = document
    for part in ref.dropFirst(2).split(separator: "/") { node = (node as? [String: Any])?[String(part)] }
    return node as? [String: Any]
  }

  private static func matches(_ value: Any, type: String) -> Bool {
    // JSONSerialization's numbers tell their JSON form by their Objective-C type: c for true and false, d for a
    // number written with a fraction or exponent, an integer type for the rest.
    let numberType = (value as? NSNumber).map { String(cString: $0.objCType) }
    switch type {
    case "null": return value is NSNull
    case "string": return value is String
    case "boolean": return numberType == "c"
    case "integer": return numberType != nil && !["c", "d", "f"].contains(numberType)
    case "number": return numberType != nil && numberType != "c"
    case "object": return value is [String: Any]
    case "array": return value is [Any]
    default: return false
    }
  }
}
