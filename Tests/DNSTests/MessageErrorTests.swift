import DNS
import Foundation
import Testing

@Suite("Message errors")
struct MessageErrorTests {
  @Test("Messages name the offset or value and say what to do")
  func messages() {
    #expect(MessageError.truncated(offset: 17).localizedDescription.contains("byte 17"))
    #expect(MessageError.badPointer(offset: 12).localizedDescription.contains("byte 12"))
    #expect(MessageError.badRecordData(offset: 25, type: .aaaa).localizedDescription.contains("AAAA"))
    let invalid = MessageError.invalidName("bücher.de", reason: .notASCII)
    #expect(invalid.localizedDescription.contains("“bücher.de”"))
    #expect(invalid.localizedDescription.contains("punycode"))
    #expect(MessageError.invalidName("a..b", reason: .emptyLabel).recoverySuggestion?.contains("1–63") == true)
    #expect(MessageError.NameProblem.labelTooLong("xyz").description.contains("“xyz” is 3 bytes"))
  }
}
