import ArgumentParser
import Blocklists
import Foundation
import Store

extension SourcesCommand {
  /// `sanehosts sources accept`: take a copy held back as a suspicious shrink.
  struct Accept: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "accept",
      abstract: "Take a source's new copy that was held back as a suspicious shrink.",
      discussion: """
        `update` holds back a new copy with fewer than half the names of the last good one and keeps \
        using the good one. This makes the held copy the source's copy (the one it replaces is kept as \
        the previous copy, for `sources diff`). Check first what it drops: `sanehosts sources diff KEY \
        --held`. Then run `sanehosts update` (or `apply`, which compiles from the copies) to use it.
        """)

    @OptionGroup var store: StoreOptions
    @OptionGroup var profile: ProfileOption
    @OptionGroup var printing: OutputOptions
    @Argument(help: "Source names (as `sources list` shows them), numbers or URLs.") var sources: [String]

    func validate() throws {
      if sources.isEmpty { throw ValidationError("Name at least one source (see `sanehosts sources list`).") }
    }

    /// What accepting a source's copy gave.
    struct Accepted: Encodable {
      var source: String
      var names: Int?
      var before: Int?
    }

    func run() async throws {
      let store = try store.open()
      var accepted: [Accepted] = []
      for reference in sources {
        let source: Source
        do {
          source = try await store.acceptHeldCopy(reference, in: profile.name)
        } catch {
          if printing.json && !accepted.isEmpty { Terminal.writeOutput(Text.json(accepted)) }
          throw error
        }
        accepted.append(Accepted(source: source.key, names: source.unique, before: source.previousUnique))
        if !printing.json {
          Terminal.writeOutput(
            "Accepted \(source.key)'s new copy: \(source.unique?.grouped ?? "?") names, "
              + "\(source.previousUnique?.grouped ?? "?") before. Run `sanehosts update` to compile the profile.\n")
        }
      }
      if printing.json { Terminal.writeOutput(Text.json(accepted)) }
    }
  }

  /// `sanehosts sources diff`: the names the last update added and removed.
  struct Diff: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "diff",
      abstract: "Show the names a source's last update added and removed.",
      discussion: """
        Compares the source's copy before its last change with the current one (the previous copy is \
        kept for this); with --held, the current copy with a new one held back as a suspicious shrink. \
        Names are shown in list order, up to --limit on each side (--all for every one); the counts \
        are always whole.
        """)

    @OptionGroup var store: StoreOptions
    @OptionGroup var profile: ProfileOption
    @Flag(help: "Compare the current copy with the copy held back as a suspicious shrink.") var held = false
    @Option(help: "Names shown on each side.") var limit = 20
    @Flag(help: "Show every name added and removed.") var all = false
    @OptionGroup var printing: OutputOptions
    @Argument(help: "The source (as `sources list` shows it), its number or URL.") var source: String

    func validate() throws {
      if limit < 0 { throw ValidationError("--limit must be 0 or more, not \(limit).") }
    }

    func run() async throws {
      let store = try store.open()
      let difference: Store.CopyDifference?
      difference = try await store.difference(of: source, in: profile.name, held: held, limit: all ? nil : limit)
      guard let difference else {
        let message =
          held
          ? "\(source) has no copy held back: there is nothing to compare."
          : "\(source) has only one copy so far: there is nothing to compare yet (the next update that changes it keeps this one to compare with)."
        if printing.json {
          Terminal.writeOutput(Text.json(["source": source, "message": message]))
        } else {
          Terminal.writeOutput(message + "\n")
        }
        return
      }
      if printing.json {
        Terminal.writeOutput(Text.json(difference))
        return
      }
      var out = "\(difference.source): \(difference.from) copy \(difference.before.counted("name")) → "
      out += "\(difference.to) copy \(difference.after.counted("name"))"
      if let date = difference.changedAt { out += " (changed \(Text.age(date)))" }
      out += "\n\(difference.addedCount.grouped) added, \(difference.removedCount.grouped) removed\n"
      for name in difference.added { out += "+ \(name)\n" }
      if difference.addedCount > difference.added.count {
        out += "  … and \((difference.addedCount - difference.added.count).grouped) more added (--all shows them)\n"
      }
      for name in difference.removed { out += "- \(name)\n" }
      if difference.removedCount > difference.removed.count {
        out +=
          "  … and \((difference.removedCount - difference.removed.count).grouped) more removed (--all shows them)\n"
      }
      Terminal.writeOutput(out)
    }
  }
}
