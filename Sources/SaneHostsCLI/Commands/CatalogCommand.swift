import ArgumentParser
import Blocklists
import Catalog
import Foundation

/// `sanehosts catalog`: the built-in lists and presets.
struct CatalogCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "catalog",
    abstract: "Browse the built-in catalog of public blocklists and presets.",
    discussion: """
      Add a list with `sanehosts sources add ID`; create a profile from a preset with \
      `sanehosts profile create NAME --preset ID`. Sizes are the lists' approximate name counts.
      """)

  @Option(
    name: .shortAndLong, help: "Only lists of this category (see the category ids in the listing).",
    completion: Completions.categories)
  var category: String?

  @Flag(help: "List the presets instead of the lists.")
  var presets = false

  @OptionGroup var printing: OutputOptions

  func validate() throws {
    if let category, Catalog.builtIn.category(id: category) == nil {
      let known = Catalog.builtIn.categories.map(\.id).joined(separator: ", ")
      throw ValidationError("There is no category “\(category)”. Categories: \(known).")
    }
  }

  func run() throws {
    let catalog = Catalog.builtIn
    if presets {
      if printing.json {
        struct PresetJSON: Encodable {
          var id, name, description: String
          var extends: String?
          var sources: [String]
          var estimatedNames: Int
        }
        Terminal.writeOutput(
          Text.json(
            catalog.presets.map { preset in
              let entries = catalog.entries(of: preset)
              return PresetJSON(
                id: preset.id, name: preset.name, description: preset.description, extends: preset.extends,
                sources: entries.map(\.id), estimatedNames: entries.map(\.estimatedNames).reduce(0, +))
            }))
        return
      }
      var out = ""
      for preset in catalog.presets {
        let entries = catalog.entries(of: preset)
        let size = Text.approximate(entries.map(\.estimatedNames).reduce(0, +))
        out += "\(preset.id) — \(preset.name): \(preset.description)\n"
        out += "  \(entries.count.counted("list")), up to \(size) names (before overlap is removed)"
        out +=
          preset.extends.map { ": everything in \($0), plus \(preset.adds.joined(separator: ", "))\n" }
          ?? ": \(preset.adds.joined(separator: ", "))\n"
      }
      Terminal.writeOutput(out)
      return
    }
    let entries = category.map { catalog.entries(in: $0) } ?? catalog.sources
    if printing.json {
      Terminal.writeOutput(Text.json(entries))
      return
    }
    var out = ""
    for category in catalog.categories {
      let members = entries.filter { $0.category == category.id }
      guard !members.isEmpty else { continue }
      out += "\(category.name) (\(category.id)): \(category.description)\n"
      out += Text.table(
        members.map { entry in
          [
            "  " + entry.id, entry.format.rawValue, "~" + Text.approximate(entry.estimatedNames), entry.licence,
            entry.name,
          ]
        })
      out += "\n"
    }
    out += "\(entries.count.counted("list")). Details: sanehosts catalog --json; presets: sanehosts catalog --presets\n"
    Terminal.writeOutput(out)
  }
}
