import Blocklists
import Foundation

/// Parses text with a line parser and returns the names and findings.
func parse(_ text: String, format: InputFormat? = nil) -> (names: [String], findings: Findings) {
  var parser = LineParser(format: format)
  Array(text.utf8).withUnsafeBufferPointer { parser.parse(buffer: $0) }
  let result = parser.finish()
  return (result.names, result.findings)
}

/// Compiles text sources and returns the list.
func compile(
  _ texts: [String], format: InputFormat? = nil, rules: RuleSet = RuleSet(), blockSize: Int = 4 << 20
) async throws -> CompiledList {
  let sources = texts.enumerated().map { ListSource.text($1, name: "list\($0 + 1)", format: format) }
  return try await Compiler(blockSize: blockSize).compile(sources, rules: rules)
}

/// Renders a list to text.
func render(
  _ list: CompiledList, _ format: OutputFormat, date: Date = Date(timeIntervalSince1970: 0), compresses: Bool = true
)
  throws -> String
{
  var sink = ByteSink()
  try Renderer(format: format, compresses: compresses, date: date).render(list, to: &sink)
  return String(decoding: sink.memory, as: UTF8.self)
}

/// The lines of a rendered list that are not comments or headers.
func bodyLines(_ text: String, _ format: OutputFormat) -> [String] {
  text.split(separator: "\n").map(String.init).filter {
    !$0.hasPrefix(format.commentPrefix) && !$0.hasPrefix("[") && $0 != "server:" && !$0.hasPrefix("$TTL")
      && !$0.hasPrefix("@")
  }
}

/// The shared test data folder beside the project, if present.
let sharedData: URL? = {
  let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
  let data = root.deletingLastPathComponent().appending(path: "shared/data")
  return FileManager.default.fileExists(atPath: data.path) ? data : nil
}()
