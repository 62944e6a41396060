import Blocklists
import Dispatch
import Foundation

/// Feeds the input to the list parser in automatic mode and in every forced format, compiles it the way
/// `sanehosts compile` compiles an in-memory source (in small blocks, so lines are split across block
/// reads), then renders the result in every output format and parses each rendering back.
///
/// Properties: the compiled names are the names the parser finds in one pass (block boundaries change
/// nothing), and a rendering, parsed again in its own format, gives back only compiled names (all of them
/// for the hosts and domains formats, which neither compress nor leave out public suffixes).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let buffer = UnsafeBufferPointer(start: data, count: size)
  var automatic: Set<String> = []
  for format in [nil] + InputFormat.allCases.map(Optional.some) {
    var parser = LineParser(format: format)
    parser.parse(buffer: buffer)
    let parsed = parser.finish()
    check(parsed.findings.lines == lineCount(buffer), "the parser counted the lines wrong")
    if format == nil { automatic = Set(parsed.names) }
  }

  let source = ListSource(name: "fuzz", location: .bytes(Array(buffer)))
  let list = wait { () async throws(CompileError) in
    try await Compiler(blockSize: 4096, parallelism: 2).compile([source])
  }
  let compiled = Set(list.allNames)
  check(
    compiled == automatic,
    "compiling in blocks found \(compiled.subtracting(automatic).sorted())"
      + " and lost \(automatic.subtracting(compiled).sorted())"
  )

  for format in OutputFormat.allCases {
    let renderer = Renderer(format: format, date: Date(timeIntervalSince1970: 0))
    var sink = ByteSink()
    do {
      try renderer.render(list, to: &sink)
    } catch {
      fatalError("rendering \(format) into memory failed: \(error)")
    }
    var parser = LineParser(format: InputFormat(format))
    sink.memory.withUnsafeBufferPointer { parser.parse(buffer: $0) }
    let reparsed = Set(parser.finish().names)
    check(
      reparsed.isSubset(of: compiled),
      "the \(format) rendering holds names that were not compiled: \(reparsed.subtracting(compiled).sorted())")
    if format == .hosts || format == .domains {
      check(
        reparsed == compiled,
        "the \(format) rendering lost \(compiled.subtracting(reparsed).sorted())")
    }
  }
  return 0
}

/// Lines in the buffer: one per newline, and one more for a last line without one.
private func lineCount(_ buffer: UnsafeBufferPointer<UInt8>) -> Int {
  let newlines = buffer.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
  return newlines + (buffer.last.map { $0 == 0x0A ? 0 : 1 } ?? 0)
}

/// Runs an async compile to completion from libFuzzer's synchronous callback.
private func wait(_ body: @escaping @Sendable () async throws(CompileError) -> CompiledList) -> CompiledList {
  final class Box: @unchecked Sendable {
    var result: Result<CompiledList, CompileError>?
  }
  let box = Box()
  let done = DispatchSemaphore(value: 0)
  Task {
    do throws(CompileError) {
      box.result = .success(try await body())
    } catch {
      box.result = .failure(error)
    }
    done.signal()
  }
  done.wait()
  switch box.result! {
  case .success(let list): return list
  case .failure(let error): fatalError("compiling an in-memory source failed: \(error)")
  }
}

/// Traps with the message when the condition fails; unlike `precondition`, the message is kept in
/// release builds, so libFuzzer's crash report says which property broke.
private func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
  if !condition() { fatalError(message()) }
}
