import Apply
import Foundation
import TestSupport
import Testing

@testable import Dashboard

@Suite("Assets")
struct AssetsTests {
  static let resources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appending(path: "Sources/Dashboard/Resources")

  @Test(
    "The script builds no markup (it swaps in what the server renders) and sends the CSRF header; the stylesheet has dark mode and a phone layout"
  )
  func assets() {
    #expect(!Assets.javascript.contains("innerHTML") && !Assets.javascript.contains("outerHTML"))
    // It builds no markup: every element comes from the server's templates.
    #expect(!Assets.javascript.contains("createElement") && !Assets.javascript.contains("insertAdjacentHTML"))
    #expect(Assets.javascript.contains("new DOMParser()"))
    #expect(!Assets.javascript.contains("eval("))
    #expect(Assets.javascript.contains("\"X-CSRF-Token\": csrf"))
    #expect(Assets.javascript.contains("new EventSource"))
    #expect(Assets.css.contains("@media (prefers-color-scheme: dark)"))
    #expect(Assets.css.contains("@media (max-width: 40rem)"))
    #expect(Assets.css.contains(":focus-visible"))
  }

  @Test("What the binary serves is the files in Resources/, byte for byte")
  func embedded() throws {
    #expect(
      try String(contentsOf: Self.resources.appending(path: "dashboard.js"), encoding: .utf8) == Assets.javascript)
    #expect(try String(contentsOf: Self.resources.appending(path: "dashboard.css"), encoding: .utf8) == Assets.css)
  }

  @Test("The script is valid JavaScript (node --check), and a syntax error is caught")
  func syntax() async throws {
    let node = try RequiredTool.path("node", package: "nodejs")
    let script = Self.resources.appending(path: "dashboard.js").path
    let checked = try await ProcessRunner().run(node, ["--check", script])
    #expect(checked.status == 0, "\(checked.combined)")
    // The check can fail: the same script with one brace too many is rejected.
    try await TemporaryDirectory.with { directory in
      let broken = directory.file("broken.js")
      try Data((Assets.javascript + "\n}\n").utf8).write(to: broken)
      let result = try await ProcessRunner().run(node, ["--check", broken.path])
      #expect(result.status != 0 && result.combined.contains("SyntaxError"), "\(result.combined)")
    }
  }

  @Test("The stylesheet's braces balance and it has no inline-style escape hatches")
  func stylesheet() {
    var depth = 0
    for character in Assets.css {
      if character == "{" { depth += 1 }
      if character == "}" { depth -= 1 }
      #expect(depth >= 0)
    }
    #expect(depth == 0)
    #expect(!Assets.css.contains("expression(") && !Assets.css.contains("@import"))
  }
}
