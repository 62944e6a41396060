import Testing

@testable import Blocklists

@Suite("Findings")
struct FindingsTests {
  @Test("Appending a later block shifts its line numbers and keeps five samples per reason")
  func append() {
    var first = Findings()
    var second = Findings()
    for line in 1...3 { Array("x".utf8).withUnsafeBufferPointer { first.reject(.emptyLabel, line: line, text: $0) } }
    for line in 1...4 { Array("y".utf8).withUnsafeBufferPointer { second.reject(.emptyLabel, line: line, text: $0) } }
    first.lines = 3
    second.lines = 4
    first.append(second, lineOffset: 3)
    #expect(first.rejected[.emptyLabel] == 7)
    #expect(first.samples[.emptyLabel]?.map(\.line) == [1, 2, 3, 4, 5])
    #expect(first.lines == 7)
  }

  @Test("The dominant format is the one most lines were in")
  func dominant() {
    var findings = Findings()
    #expect(findings.dominantFormat == nil)
    findings.formats = [.hosts: 10, .adblock: 3]
    #expect(findings.dominantFormat == .hosts)
  }

  @Test("Reasons have short summaries and a stable order")
  func reasons() {
    #expect(RejectReason.allCases.allSatisfy { !$0.summary.isEmpty })
    #expect(RejectReason.invalidCharacter < RejectReason.binaryData)
  }
}
