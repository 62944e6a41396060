import Foundation
import TestSupport
import Testing

@testable import SaneHostsCLI

@Suite("The sanehosts command")
struct SaneHostsTests {
  @Test("--version prints the version")
  func version() async throws {
    let result = try await CommandRunner().run(["--version"])
    #expect(result.status == 0)
    #expect(result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == "0.1.0")
  }

  @Test("--help lists the commands that exist, and only those")
  func help() async throws {
    let result = try await CommandRunner().run(["--help"])
    #expect(result.status == 0)
    #expect(result.standardOutput.contains("fetch"))
    #expect(result.standardOutput.contains("BLOCKLISTS"))
    #expect(result.standardOutput.contains("SOURCES AND PROFILES"))
    #expect(result.standardOutput.contains("APPLYING"))
    #expect(result.standardOutput.contains("TESTING A BLOCKER"))
    #expect(result.standardOutput.contains("DASHBOARD"))
    for command in [
      "status", "update", "sources", "profile", "allow", "deny", "catalog", "compile", "apply", "disable", "restore",
      "schedule", "test", "history", "registry", "pihole", "serve",
    ] {
      #expect(result.standardOutput.contains("  \(command) "), "\(command) is listed")
    }
    for missing in ["hardening", "fuzz"] {
      #expect(!result.standardOutput.contains("  \(missing) "), "no placeholder for \(missing)")
    }
  }

  @Test("Shell completion scripts are generated")
  func completions() async throws {
    for shell in ["bash", "zsh", "fish"] {
      let result = try await CommandRunner().run(["--generate-completion-script", shell])
      #expect(result.status == 0)
      #expect(result.standardOutput.contains("fetch"))
    }
  }

  @Test("apply's --verify takes an optional value: alone (last or before an option) it means the system resolver")
  func optionalVerifyValue() {
    #expect(SaneHosts.optionalValues(["apply", "--verify"]) == ["apply", "--verify=system"])
    #expect(SaneHosts.optionalValues(["apply", "--verify", "--quiet"]) == ["apply", "--verify=system", "--quiet"])
    #expect(SaneHosts.optionalValues(["apply", "--verify", "127.0.0.1:53"]) == ["apply", "--verify", "127.0.0.1:53"])
    #expect(SaneHosts.optionalValues(["test", "--verify"]) == ["test", "--verify"])
  }

  @Test("A mistyped command gets the closest one; a missing folder for --hosts-file is named as such")
  func suggestions() async throws {
    let cli = try StoreCLI()
    defer { cli.remove() }
    let top = try await cli.run("updat")
    #expect(top.status == 64)
    #expect(top.standardError.contains("Did you mean `sanehosts update`?"), "\(top.standardError)")
    let nested = try await cli.run("sources", "lst")
    #expect(nested.standardError.contains("Did you mean `sanehosts sources list`?"))
    #expect(SaneHosts.misspelledSubcommand(["history", "show", "3"]) == nil)
    #expect(SaneHosts.misspelledSubcommand(["compile", "list.txt"]) == nil)
    #expect(SaneHosts.distance("kitten", "sitting") == 3)
    try await cli.ok("sources", "add", "adaway")
    let apply = try await cli.run("apply", "--hosts-file", "/nonexistent/folder/hosts")
    #expect(apply.standardError.contains("the folder /nonexistent/folder does not exist"), "\(apply.standardError)")
    #expect(!apply.standardError.contains("lsattr"))
  }
}
