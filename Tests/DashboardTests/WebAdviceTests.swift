import Apply
import Blocklists
import Foundation
import Testing
import UseCases

@testable import BlockerTest
@testable import Dashboard

/// A command-line flag, a `sanehosts` subcommand, or a command in backticks.
private func commandLine(_ text: String) -> Bool {
  text.contains("`") || text.contains("sanehosts ")
    || text.range(of: #"(^|[^\w-])--[a-z]"#, options: .regularExpression) != nil
}

@Suite("Web advice")
struct WebAdviceTests {
  static let applyErrors: [ApplyError] = [
    .notPermitted(path: "/etc/hosts", detail: "EACCES", isRoot: false),
    .notPermitted(path: "/etc/hosts", detail: "EROFS", isRoot: true),
    .unreadable(path: "/h", detail: "EACCES"),
    .missingDirectory(path: "/no/h", directory: "/no"),
    .notRegularFile(path: "/dev/null"),
    .brokenSection(path: "/h", problem: .unterminated(beginLine: 3)),
    .invalidContent(path: "/h", reason: "line 2 would not parse"),
    .sectionEdited(path: "/h", since: Date(timeIntervalSince1970: 0)),
    .changedMeanwhile(path: "/h"),
    .noSuchBackup(id: "x", known: ["b1"]),
    .noSuchBackup(id: "x", known: []),
    .writeFailed(path: "/h", detail: "ENOSPC"),
    .nothingToApply(profile: "p", reason: .noEnabledSource),
    .nothingToApply(profile: "p", reason: .noSavedCopy),
  ]

  @Test(
    "Every apply error's advice on the web names a page, button or checkbox, never a command", arguments: applyErrors)
  func errors(_ error: ApplyError) throws {
    let suggestion = try #require(WebAdvice.suggestion(for: error))
    #expect(!commandLine(suggestion), "\(suggestion)")
    #expect(!commandLine(try #require(error.errorDescription)), "\(error)")
    // The same error through the API gets the web's advice.
    #expect(ErrorPayload.from(error).0.suggestion == suggestion)
  }

  @Test("Each error's command-line advice differs from the web's where it names a command")
  func commandLineKept() {
    for error in Self.applyErrors where commandLine(error.recoverySuggestion ?? "") {
      #expect(WebAdvice.suggestion(for: error) != error.recoverySuggestion, "\(error)")
    }
    #expect(
      WebAdvice.suggestion(for: .sectionEdited(path: "/h", since: Date()))?.contains("Replace edits made by others")
        == true)
    #expect(
      WebAdvice.suggestion(for: .nothingToApply(profile: "p", reason: .noSavedCopy))?.contains("Update now") == true)
  }

  @Test(
    "Every apply warning reads without a command on the web",
    arguments: [
      ApplyWarning.notDownloaded(source: "ads"), .largeHostsFile(names: 200_000),
      .drift(.insideSection(since: Date(timeIntervalSince1970: 0)), path: "/h"),
      .rewrittenInPlace(path: "/h", backup: nil), .flushFailed(cache: "nscd"),
      .notChecked(.unavailable(tool: "named-checkzone")), .reloadFailed(path: "/x", server: "unbound"),
    ])
  func warnings(_ warning: ApplyWarning) {
    let text = WebAdvice.text(warning)
    #expect(!commandLine(text), "\(text)")
  }

  @Test(
    "A verification miss's cause on the web names no flag",
    arguments: [
      Verification.Cause.noAnswer, .resolverSkipsFile, .systemCache, .notReloaded, .serverCache, .notLoaded,
      .answeredElsewhere,
    ])
  func causes(_ kind: Verification.Cause) {
    let cli: String =
      switch kind {
      case .systemCache: "a cached answer (systemd-resolved, nscd): apply with --flush, or wait for it to expire"
      case .notReloaded: "the server was not reloaded: apply with --reload (or reload it yourself), then verify again"
      case .notLoaded: "the server does not load /x: add the configuration line `apply` printed on its first write"
      default: "no usable answer (timeout): check that the target answers, then verify again"
      }
    let miss = Verification.Miss(name: "a.website", outcome: .reachable, reason: "192.0.2.1", kind: kind, cause: cli)
    let text = WebAdvice.cause(miss)
    #expect(!commandLine(text), "\(text)")
  }

  @Test("Every status warning is worded for the page: no command, no flag")
  func statusWarnings() {
    let warnings: [ProfileStatus.Warning] = [
      .noSources(profile: "p"), .allDisabled, .failed(source: "f", message: "HTTP 500"),
      .failed(source: "f", message: nil),
      .neverDownloaded(source: "n"), .stale(source: "s", lastSuccess: Date(), days: 9),
      .notAList(source: "w", kind: .html), .notAList(source: "w", kind: .gzip), .notAList(source: "w", kind: .utf16),
      .notCompiled, .changedSinceCompile,
      .weakTest,
    ]
    for warning in warnings {
      let text = WebAdvice.text(warning)
      #expect(!commandLine(text), "\(warning): \(text)")
    }
    // The command line's own wording of the same warnings does name the command to run.
    for warning in [
      ProfileStatus.Warning.noSources(profile: "p"), .allDisabled, .neverDownloaded(source: "n"),
      .notCompiled, .changedSinceCompile, .weakTest,
    ] {
      #expect(commandLine(warning.description), "\(warning): \(warning.description)")
    }
    #expect(WebAdvice.text(.neverDownloaded(source: "n")).contains("Update now"))
  }
}
