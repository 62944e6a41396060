import Mustache

/// The dashboard's Mustache templates: the files in `Resources/Templates/`, compiled into the binary (no
/// file beside it) by the EmbedTemplates build plugin as `Templates.files`, parsed once into one library.
///
/// A template is registered under its file name without `.mustache`; each can use the others as partials
/// (`{{>sources-update}}`). Every `{{name}}` is escaped for HTML; `{{{name}}}` is never used.
enum Templates {
  /// Every template, parsed once at the first use.
  static let library: MustacheLibrary = {
    var library = MustacheLibrary()
    for file in files {
      do {
        try library.register(file.text, named: file.name)
      } catch {
        // The templates are part of the binary: a test parses each, so this cannot happen in a release.
        preconditionFailure("The template \(file.name).mustache does not parse: \(error)")
      }
    }
    return library
  }()
}
