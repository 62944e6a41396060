import Apply
import Foundation
import Testing

@Suite("Apply errors")
struct ApplyErrorTests {
  @Test("Every error names the file or value and says what to do")
  func messages() {
    let since = Date(timeIntervalSince1970: 1_800_000_000)
    let cases: [(ApplyError, String, String)] = [
      (.notPermitted(path: "/etc/hosts", detail: "Permission denied", isRoot: false), "/etc/hosts", "sudo"),
      (.notPermitted(path: "/etc/hosts", detail: "Read-only file system", isRoot: true), "/etc/hosts", "mount"),
      (.unreadable(path: "/x/hosts", detail: "No such file"), "/x/hosts", "--hosts-file"),
      (.notRegularFile(path: "/dev/null"), "/dev/null", "regular file"),
      (.brokenSection(path: "/h", problem: .unterminated(beginLine: 4)), "line 4", "restore"),
      (.invalidContent(path: "/h", reason: "it holds a NUL byte at offset 9"), "offset 9", "restore"),
      // Regression: what SaneHosts would write failing its check said "Fix the file by hand", though
      // nothing was written.
      (.invalidOutput(path: "/h", reason: "named-checkzone failed"), "Nothing was written", "--no-check"),
      (.sectionEdited(path: "/h", since: since), "/h", "--force"),
      (.changedMeanwhile(path: "/h"), "/h", "again"),
      (.noSuchBackup(id: "hosts-1", known: ["hosts-2"]), "hosts-1", "hosts-2"),
      (.writeFailed(path: "/h", detail: "No space left"), "No space left", "disk space"),
      (.nothingToApply(profile: "work", reason: .noEnabledSource), "work", "sources add"),
    ]
    // Regression: a drop-in that may not be written suggested only --hosts-file.
    #expect(
      ApplyError.notPermitted(path: "/etc/unbound/x.conf", detail: "Operation not permitted", isRoot: true)
        .recoverySuggestion?.contains("--output PATH for a drop-in") == true)
    for (error, named, advice) in cases {
      #expect(error.errorDescription?.contains(named) == true, "\(error)")
      #expect(error.recoverySuggestion?.contains(advice) == true, "\(error)")
    }
  }

  @Test("Broken markers are described with their line numbers")
  func problems() {
    #expect(ManagedSection.Problem.unexpectedEnd(line: 7).description.contains("line 7"))
    #expect(ManagedSection.Problem.duplicate(firstLine: 2, secondLine: 9).description.contains("2 and 9"))
    #expect(ManagedSection.Problem.invalidBody(line: 3).description.contains("line 3"))
  }
}
