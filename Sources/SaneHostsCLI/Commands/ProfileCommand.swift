import ArgumentParser
import Blocklists
import Catalog
import Foundation
import Store
import UseCases

/// `sanehosts profile`: named combinations of sources and rules.
struct ProfileCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "profile",
    abstract: "Create, list, show, duplicate, merge, use and delete profiles.",
    discussion: """
      A profile combines sources with allow and deny rules. One profile is active: `update`, `sources`, \
      `allow`, `deny` and `compile` use it unless told otherwise. A new store has one profile, default.
      """,
    subcommands: [Create.self, List.self, Show.self, Duplicate.self, Merge.self, Use.self, Delete.self],
    defaultSubcommand: List.self)

  struct Create: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "create", abstract: "Create a profile, empty or from a preset.")

    @OptionGroup var store: StoreOptions
    @Argument(help: "The new profile's name.") var name: String
    @Option(help: "Start from a preset (see `sanehosts catalog --presets`).", completion: Completions.presets)
    var preset: String?
    @Flag(help: "Make it the active profile.") var use = false

    func validate() throws {
      if let preset, Catalog.builtIn.preset(id: preset) == nil {
        let known = Catalog.builtIn.presets.map(\.id).joined(separator: ", ")
        throw ValidationError("There is no preset “\(preset)”. Presets: \(known).")
      }
    }

    func run() throws {
      let store = try store.open()
      let preset = self.preset.flatMap { Catalog.builtIn.preset(id: $0) }
      let sources = preset.map { Catalog.builtIn.entries(of: $0).map(NewSource.init) } ?? []
      let profile = try store.createProfile(
        name, summary: preset?.description, preset: preset?.id, sources: sources, activate: use)
      Terminal.writeOutput(
        "Created profile \(profile.name)\(preset.map { " from preset \($0.name) (\(sources.count.counted("source")))" } ?? " (empty)")"
          + (use ? ", now active" : "") + ".\n")
    }
  }

  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the profiles.")

    @OptionGroup var store: StoreOptions
    @OptionGroup var printing: OutputOptions

    func run() throws {
      let store = try store.open()
      let profiles = try store.profiles()
      var rows = [["", "PROFILE", "SOURCES", "RULES", "NAMES", "COMPILED", "PRESET"]]
      var objects: [ProfileJSON] = []
      for profile in profiles {
        let object = try ProfileJSON(profile, store: store)
        objects.append(object)
        rows.append([
          profile.isActive ? "*" : "", profile.name, "\(object.enabledSources)/\(object.sources.count)",
          String(object.allow.count + object.deny.count), object.names.map(\.grouped) ?? "-",
          Text.age(object.compiledAt), profile.preset ?? "",
        ])
      }
      printing.write(objects) { Text.table(rows) }
    }
  }

  struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "show", abstract: "Show a profile: sources, rules, compiled list.")

    @OptionGroup var store: StoreOptions
    @Argument(help: "The profile (default: the active one).", completion: Completions.profiles) var name: String?
    @OptionGroup var printing: OutputOptions

    func run() throws {
      let store = try store.open()
      let profile = try store.profile(name)
      let object = try ProfileJSON(profile, store: store)
      if printing.json {
        Terminal.writeOutput(Text.json(object))
        return
      }
      var out = "Profile \(profile.name)\(profile.isActive ? " (active)" : "")"
      out += profile.preset.map { ", from preset \($0)" } ?? ""
      out += "\n"
      if let summary = profile.summary { out += "\(summary)\n" }
      if let names = object.names {
        out += "Compiled: \(names.counted("name")), \(Text.age(object.compiledAt)) (\(object.compiledFile ?? ""))\n"
      } else {
        out += "Not compiled yet: run `sanehosts update --profile \(profile.name)`.\n"
      }
      let members = try store.sources(in: profile.name)
      out += "\nSources:\n" + (members.isEmpty ? "  none\n" : SourceTable.table(members))
      out += "\nAllow rules: \(object.allow.isEmpty ? "none" : object.allow.joined(separator: ", "))\n"
      out += "Deny rules: \(object.deny.isEmpty ? "none" : object.deny.joined(separator: ", "))\n"
      Terminal.writeOutput(out)
    }
  }

  struct Duplicate: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "duplicate", abstract: "Copy a profile's sources and rules under a new name.")

    @OptionGroup var store: StoreOptions
    @Argument(help: "The profile to copy.", completion: Completions.profiles) var name: String
    @Argument(help: "The new profile's name.") var newName: String

    func run() throws {
      let store = try store.open()
      let copy = try store.duplicateProfile(name, as: newName)
      Terminal.writeOutput("Created profile \(copy.name) as a copy of \(name).\n")
    }
  }

  struct Merge: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "merge",
      abstract: "Add one profile's sources and rules to another.",
      discussion: "What the target already has stays as it is; FROM is left unchanged.")

    @OptionGroup var store: StoreOptions
    @Argument(help: "The profile whose sources and rules are added.", completion: Completions.profiles) var from: String
    @Argument(help: "The profile that receives them.", completion: Completions.profiles) var into: String

    func run() throws {
      let store = try store.open()
      let added = try store.mergeProfile(from, into: into)
      Terminal.writeOutput(
        "Merged \(from) into \(into): \(added.sources.counted("source")) and \(added.rules.counted("rule")) added.\n")
    }
  }

  struct Use: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "use", abstract: "Make a profile the active one.")

    @OptionGroup var store: StoreOptions
    @Argument(help: "The profile.", completion: Completions.profiles) var name: String

    func run() throws {
      let store = try store.open()
      let profile = try store.useProfile(name)
      Terminal.writeOutput("Profile \(profile.name) is now active.\n")
    }
  }

  struct Delete: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "delete",
      abstract: "Delete a profile that is not active.",
      discussion: """
        Sources that no other profile uses are deleted with their saved copies. A profile still applied \
        (to the hosts file or a drop-in that SaneHosts wrote and that still exists) is not deleted: take \
        it off first with `sanehosts disable`, or give --force.
        """)

    @OptionGroup var store: StoreOptions
    @Argument(help: "The profile.", completion: Completions.profiles) var name: String
    @Flag(help: "Delete it even while it is applied somewhere (its names stay in those files).") var force = false

    func run() throws {
      let store = try store.open()
      let applied: [ProfileDeletion.Applied]
      applied = try ProfileDeletion.delete(name, in: store, force: force)
      for file in applied {
        Terminal.writeError(
          "warning: \(file.path) still holds \(file.names.counted("name")) of the deleted profile \(name); `sanehosts disable` takes them off.\n"
        )
      }
      Terminal.writeOutput("Deleted profile \(name).\n")
    }
  }
}

/// A profile as `--json` shows it.
struct ProfileJSON: Encodable {
  var name: String
  var active: Bool
  var summary: String?
  var preset: String?
  var sources: [SourceSummary]
  var enabledSources: Int
  var allow: [String]
  var deny: [String]
  var names: Int?
  var compiledAt: Date?
  var compiledFile: String?
  var compiledSHA256: String?

  init(_ profile: Profile, store: Store) throws {
    self.init(try store.snapshot(of: profile.name), in: store.directory)
  }

  init(_ snapshot: ProfileSnapshot, in directory: DataDirectory) {
    let profile = snapshot.profile
    name = profile.name
    active = profile.isActive
    summary = profile.summary
    preset = profile.preset
    sources = snapshot.sources.map { SourceSummary($0) }
    enabledSources = snapshot.sources.filter(\.enabled).count
    allow = snapshot.rules.filter { $0.action == .allow }.map(\.text)
    deny = snapshot.rules.filter { $0.action == .deny }.map(\.text)
    if let compiled = snapshot.compiled {
      names = compiled.names
      compiledAt = compiled.compiledAt
      compiledFile = directory.file(compiled.file).path
      compiledSHA256 = compiled.sha256
    }
  }
}
