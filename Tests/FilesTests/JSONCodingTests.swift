import Files
import Foundation
import Testing

@Suite("The one JSON form")
struct JSONCodingTests {
  struct Sample: Codable, Equatable {
    var url = "https://lists.website/a/b"
    var when = Date(timeIntervalSince1970: 1_764_320_411)
    var a = 1
  }

  @Test("Keys sorted, dates in ISO 8601, slashes unescaped; pretty is indented; it reads back")
  func form() throws {
    #expect(
      JSONCoding.text(Sample()) == #"{"a":1,"url":"https://lists.website/a/b","when":"2025-11-28T09:00:11Z"}"# + "\n")
    let pretty = JSONCoding.text(Sample(), pretty: true)
    #expect(pretty.hasPrefix("{\n  \"a\" : 1,\n"))
    #expect(try JSONCoding.decode(Sample.self, from: Data(pretty.utf8)) == Sample())
    #expect(try JSONCoding.decode(Sample.self, from: JSONCoding.encode(Sample())) == Sample())
  }

  @Test("An object of varying fields: the same form on one line; {} for what is not one")
  func object() {
    #expect(JSONCoding.line(object: ["b": 1, "a": "https://x/y"]) == #"{"a":"https://x/y","b":1}"#)
    #expect(JSONCoding.line(object: ["bad": Date()]) == "{}")
  }
}
