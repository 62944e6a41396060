import ArgumentParser
import Blocklists
import Catalog
import Downloads
import Foundation
import Store
import UseCases

/// `sanehosts sources`: the lists of a profile.
struct SourcesCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "sources",
    abstract: "Add, remove, enable, disable, list and compare the sources of a profile, and check their health.",
    discussion: """
      A source is a catalog id (see `sanehosts catalog`), an https:// URL (http:// only on this machine), \
      a file:// URL or a path to a local file. Commands act on the active profile unless --profile names \
      another. Changes take effect at the next `sanehosts update`.
      """,
    subcommands: [
      Add.self, Remove.self, Enable.self, Disable.self, List.self, OverlapCommand.self, Diff.self, Accept.self,
    ],
    defaultSubcommand: List.self)

  struct Add: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "add", abstract: "Add sources to a profile.",
      discussion: """
        --mirror gives another place the same list is published (repeatable, one source only): when the \
        source's own URL fails, or serves something that is not a list, `update` tries each mirror in order \
        with the same checks, and `status` says when the copy in use came from a mirror. Catalog entries \
        may carry mirrors of their own. Adding a mirror to a source the store has already keeps it.
        """)

    @OptionGroup var store: StoreOptions
    @OptionGroup var profile: ProfileOption
    @Argument(help: "Catalog ids, URLs or files.", completion: Completions.catalogEntries) var sources: [String]
    @Option(help: "A short name for the source (one source only).") var name: String?
    @Option(help: "Read the list as this format instead of recognising each line.") var format: InputFormat?
    @Option(help: "A category for a custom source (see `sanehosts catalog`).", completion: Completions.categories)
    var category: String?
    @Option(help: "Another URL of the same list, tried when the source's own fails (repeatable).")
    var mirror: [String] = []

    func validate() throws {
      if sources.isEmpty { throw ValidationError("Name at least one source: a catalog id, URL or file.") }
      if name != nil && sources.count > 1 { throw ValidationError("--name needs a single source.") }
      if !mirror.isEmpty && sources.count > 1 { throw ValidationError("--mirror needs a single source.") }
    }

    func run() throws {
      let store = try store.open()
      let profile = try store.profile(self.profile.name)
      for text in sources {
        var addition = SourceAddition(text)
        (addition.name, addition.format, addition.category, addition.mirrors) = (name, format, category, mirror)
        switch try addition.add(to: profile.name, in: store) {
        case .added(let source):
          Terminal.writeOutput("Added \(source.key) (\(source.location)) to profile \(profile.name).\n")
        case .alreadyThere(let key, let location):
          // Adding what is there already changes nothing: said, and not an error (exit 0).
          Terminal.writeOutput("Already there: \(key) (\(location)) is in profile \(profile.name).\n")
        }
      }
      Terminal.writeOutput("Run `sanehosts update` to download.\n")
    }
  }

  struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "remove",
      abstract: "Remove sources from a profile (a source no profile uses is deleted with its copy).")

    @OptionGroup var target: SourceReferences

    func run() throws {
      try target.each("Removed") { store, reference, profile throws(StoreError) in
        try store.removeSource(reference, from: profile)
      }
    }
  }

  struct Enable: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "enable", abstract: "Use sources again in a profile.")

    @OptionGroup var target: SourceReferences

    func run() throws {
      try target.each("Enabled") { store, reference, profile throws(StoreError) in
        try store.setEnabled(true, source: reference, in: profile)
      }
    }
  }

  struct Disable: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "disable",
      abstract: "Stop using sources in a profile without removing them.")

    @OptionGroup var target: SourceReferences

    func run() throws {
      try target.each("Disabled") { store, reference, profile throws(StoreError) in
        try store.setEnabled(false, source: reference, in: profile)
      }
    }
  }

  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list", abstract: "List a profile's sources with freshness and counts.")

    @OptionGroup var store: StoreOptions
    @OptionGroup var profile: ProfileOption
    @OptionGroup var printing: OutputOptions

    func run() throws {
      let store = try store.open()
      let profile = try store.profile(self.profile.name)
      let members = try store.sources(in: profile.name)
      if printing.json {
        Terminal.writeOutput(Text.json(members.map { SourceSummary($0) }))
        return
      }
      guard !members.isEmpty else {
        Terminal.writeOutput(
          "Profile \(profile.name) has no sources. Add one: sanehosts sources add ID|URL|FILE (ids: sanehosts catalog)\n"
        )
        return
      }
      Terminal.writeOutput(SourceTable.table(members))
    }
  }
}

/// The arguments of `sources remove|enable|disable`: sources of a profile.
struct SourceReferences: ParsableArguments {
  @OptionGroup var store: StoreOptions
  @OptionGroup var profile: ProfileOption
  @Argument(
    help: "Source names (as `sources list` shows them), numbers or URLs.", completion: Completions.sourceKeys)
  var sources: [String]

  func validate() throws {
    if sources.isEmpty { throw ValidationError("Name at least one source (see `sanehosts sources list`).") }
  }

  /// Applies a change to each source in turn, printing “<verb> <key>.” for each.
  func each(_ verb: String, _ change: (Store, String, String?) throws(StoreError) -> Source) throws {
    let store = try store.open()
    for reference in sources {
      let source = try change(store, reference, profile.name)
      Terminal.writeOutput("\(verb) \(source.key).\n")
    }
  }
}

/// The sources as the command line shows them.
enum SourceTable {
  /// The sources as a table: name, on/off, status, freshness, names now and in the previous copy and the
  /// change, rejected, format.
  static func table(_ members: [ProfileSource], failures: Bool = true) -> String {
    var rows = [
      ["#", "SOURCE", "ON", "STATUS", "UPDATED", "NAMES", "BEFORE", "CHANGE", "REJECTED", "FORMAT", "LOCATION"]
    ]
    for member in members {
      let source = member.source
      let trend = source.trend
      rows.append([
        String(source.id), source.key, member.enabled ? "yes" : "no",
        source.heldCopy == nil ? source.status.rawValue : "held", Text.age(source.lastSuccess),
        trend.now?.grouped ?? "-", trend.before?.grouped ?? "-", trend.change.map(Text.signed) ?? "-",
        source.rejected?.grouped ?? "-", (source.format ?? source.detectedFormat)?.rawValue ?? "auto", source.location,
      ])
    }
    var out = Text.table(rows)
    for member in members where failures && member.source.status == .failed {
      out += "! \(member.source.key): \(member.source.message ?? "failed")\n"
    }
    return out
  }
}
