import Foundation
import PackagePlugin

/// Compiles a target's `Resources/Templates/*.mustache` into one generated Swift file, `Templates+Files.swift`,
/// listing every template by name: a template added to the folder is in the binary and registered at the
/// next build, with no list to keep by hand.
@main
struct EmbedTemplates: BuildToolPlugin {
  /// One command: the embedder reads every template and writes the file.
  func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
    guard let target = target as? SourceModuleTarget else { return [] }
    let folder = target.directoryURL.appending(path: "Resources/Templates")
    let templates = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
      .filter { $0.pathExtension == "mustache" }
      .sorted { $0.lastPathComponent < $1.lastPathComponent }
    let output = context.pluginWorkDirectoryURL.appending(path: "Templates+Files.swift")
    return [
      .buildCommand(
        displayName: "Embedding \(templates.count) templates of \(target.name)",
        executable: try context.tool(named: "TemplateEmbedder").url,
        arguments: [output.path] + templates.map(\.path),
        inputFiles: templates,
        outputFiles: [output])
    ]
  }
}
