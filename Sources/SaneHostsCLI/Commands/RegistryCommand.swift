import ArgumentParser
import BlockerTest
import Foundation
import Store

/// `sanehosts registry`: the domains `sanehosts test` probes.
struct RegistryCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "registry",
    abstract: "List the blocker test's domains, and add or remove your own.",
    subcommands: [List.self, Add.self, Remove.self],
    defaultSubcommand: List.self)

  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list", abstract: "Every test domain with its category and provider.")
    @OptionGroup var store: StoreOptions
    @Option(help: "Only this category.") var category: String?
    @OptionGroup var printing: OutputOptions

    func run() throws {
      let store = try store.open()
      var domains = try RegistryCommand.registry(store).domains
      if let category { domains = domains.filter { $0.category.lowercased() == category.lowercased() } }
      if printing.json {
        Terminal.writeOutput(Text.json(domains))
        return
      }
      let rows = domains.map { [$0.category, $0.provider, $0.hostname + ($0.isCustom ? "  (yours)" : "")] }
      Terminal.writeOutput(Text.table([["CATEGORY", "PROVIDER", "HOSTNAME"]] + rows))
    }
  }

  struct Add: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add your own test domains.")
    @OptionGroup var store: StoreOptions
    @Argument(help: "Hostnames to add.") var hostnames: [String]
    @Option(help: "Their category (an existing one, or a new one such as Local).") var category: String
    @Option(help: "Who runs them.") var provider = "Custom"

    func validate() throws {
      if hostnames.isEmpty { throw ValidationError("Name at least one hostname.") }
      if category.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("--category needs a name.") }
      if category.lowercased() == TestDomain.controlCategory.lowercased() {
        throw ValidationError("Control domains are built in; choose another category.")
      }
    }

    func run() throws {
      let store = try store.open()
      for name in hostnames {
        let hostname: String
        hostname = try Registry.normalize(name)
        // A domain the registry has is said so, not "Added" again.
        if let builtIn = Registry.builtIn.domains.first(where: { $0.hostname == hostname }) {
          Terminal.writeError(
            "\(hostname) is in the built-in registry already (\(builtIn.category), \(builtIn.provider)): nothing added.\n"
          )
          continue
        }
        let known = try store.customTestDomains()
        if let mine = known.first(where: { $0.hostname == hostname }), mine.category == category,
          mine.provider == provider
        {
          Terminal.writeError("\(hostname) is in your registry already (\(category), \(provider)): nothing added.\n")
          continue
        }
        try store.addCustomTestDomain(CustomTestDomain(hostname: hostname, category: category, provider: provider))
        let was = known.first(where: { $0.hostname == hostname })
        Terminal.writeError(
          was.map { "Updated \(hostname): (\($0.category), \($0.provider)) → (\(category), \(provider)).\n" }
            ?? "Added \(hostname) (\(category), \(provider)).\n")
      }
    }
  }

  struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove test domains you added.")
    @OptionGroup var store: StoreOptions
    @Argument(help: "Hostnames to remove.") var hostnames: [String]

    func run() throws {
      let store = try store.open()
      for name in hostnames {
        let hostname = (try? Registry.normalize(name)) ?? name
        if Registry.builtIn.domains.contains(where: { $0.hostname == hostname }) {
          throw ValidationError("\(hostname) is built into the registry; only domains you added can be removed.")
        }
        try store.removeCustomTestDomain(hostname)
        Terminal.writeError("Removed \(hostname).\n")
      }
    }
  }

  /// The built-in registry with the user's domains added.
  static func registry(_ store: Store) throws -> Registry {
    try Registry.builtIn(with: store)
  }
}
