import Foundation
import Testing

@testable import Blocklists

/// The generated rules are the committed list's (`data/public_suffix_list.dat`), as
/// `scripts/generate-psl.py` writes them: each rule once, in order, Unicode labels in punycode.
@Suite("The bundled Public Suffix List is the committed one")
struct PublicSuffixListRulesTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// The committed list's rules in the generated form, and its VERSION line.
  static func committed() throws -> (rules: [String], version: String?) {
    let text = try String(contentsOf: root.appending(path: "data/public_suffix_list.dat"), encoding: .utf8)
    var rules: [String] = []
    var version: String?
    for raw in text.split(separator: "\n") {
      let line = raw.trimmingCharacters(in: .whitespaces)
      if line.hasPrefix("// VERSION:") { version = line.dropFirst(11).trimmingCharacters(in: .whitespaces) }
      guard !line.isEmpty, !line.hasPrefix("//"), let token = line.split(separator: " ").first else { continue }
      let exception = token.hasPrefix("!")
      let labels = token.dropFirst(exception ? 1 : 0).split(separator: ".").map { label -> String in
        guard label != "*", !label.allSatisfy(\.isASCII) else { return label.lowercased() }
        let scalars = label.lowercased().unicodeScalars.map(\.value)
        return "xn--" + String(decoding: Punycode.encode(scalars) ?? [], as: UTF8.self)
      }
      rules.append((exception ? "!" : "") + labels.joined(separator: "."))
    }
    return (rules, version)
  }

  @Test("Every rule of the committed list, in order, and its version; regenerate with scripts/generate-psl.py")
  func matchesCommittedList() throws {
    let (rules, version) = try Self.committed()
    let bundled = PublicSuffixList.bundledRules.split(separator: "\n").map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    #expect(rules.count > 9_000)
    #expect(bundled == rules, "the generated file is not the committed list: run scripts/generate-psl.py")
    #expect(version == PublicSuffixList.bundledVersion)
  }

  @Test("The generator, when python3 is installed, writes the committed file byte for byte")
  func generator() throws {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
    let python = (path.split(separator: ":").map { "\($0)/python3" } + ["/usr/bin/python3"])
      .first { FileManager.default.isExecutableFile(atPath: $0) }
    guard let python else { return }  // The test above checks the rules without it.
    let output = FileManager.default.temporaryDirectory.appending(path: "psl-\(UUID().uuidString).swift")
    defer { try? FileManager.default.removeItem(at: output) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = [Self.root.appending(path: "scripts/generate-psl.py").path, "--output", output.path]
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    let committed = try Data(contentsOf: Self.root.appending(path: "Sources/Blocklists/PublicSuffixList+Rules.swift"))
    #expect(try Data(contentsOf: output) == committed)
  }
}
