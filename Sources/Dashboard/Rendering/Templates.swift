import Mustache

/// The dashboard's Mustache templates: the files in `Resources/Templates/`, compiled into the binary (no
/// file beside it), parsed once into one library.
///
/// A template is registered under its file name without `.mustache`; each can use the others as partials
/// (`{{>sources-update}}`). Every `{{name}}` is escaped for HTML; `{{{name}}}` is never used.
enum Templates {
  /// Each template's name and text, as embedded by the package (`PackageResources`).
  static let files: [(name: String, bytes: [UInt8])] = [
    ("layout", PackageResources.layout_mustache),
    ("fragment", PackageResources.fragment_mustache),
    ("flash", PackageResources.flash_mustache),
    ("csrf", PackageResources.csrf_mustache),
    ("gauge", PackageResources.gauge_mustache),
    ("error", PackageResources.error_mustache),
    ("login", PackageResources.login_mustache),
    ("overview", PackageResources.overview_mustache),
    ("sources", PackageResources.sources_mustache),
    ("sources-update", PackageResources.sources_update_mustache),
    ("source-row", PackageResources.source_row_mustache),
    ("source-diff", PackageResources.source_diff_mustache),
    ("why", PackageResources.why_mustache),
    ("why-result", PackageResources.why_result_mustache),
    ("traffic", PackageResources.traffic_mustache),
    ("traffic-names", PackageResources.traffic_names_mustache),
    ("traffic-hit", PackageResources.traffic_hit_mustache),
    ("allow-form", PackageResources.allow_form_mustache),
    ("overlap", PackageResources.overlap_mustache),
    ("test", PackageResources.test_mustache),
    ("test-status", PackageResources.test_status_mustache),
    ("report", PackageResources.report_mustache),
    ("history", PackageResources.history_mustache),
    ("run", PackageResources.run_mustache),
    ("run-diff", PackageResources.run_diff_mustache),
    ("apply", PackageResources.apply_mustache),
    ("apply-outcome", PackageResources.apply_outcome_mustache),
    ("apply-backups", PackageResources.apply_backups_mustache),
  ]

  /// Every template, parsed once at the first use.
  static let library: MustacheLibrary = {
    var library = MustacheLibrary()
    for file in files {
      do {
        try library.register(String(decoding: file.bytes, as: UTF8.self), named: file.name)
      } catch {
        // The templates are part of the binary: a test parses each, so this cannot happen in a release.
        preconditionFailure("The template \(file.name).mustache does not parse: \(error)")
      }
    }
    return library
  }()
}
