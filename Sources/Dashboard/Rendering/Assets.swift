/// The dashboard's stylesheet and script: `Resources/dashboard.css` and `Resources/dashboard.js`, compiled
/// into the binary (no build step, no CDN, no file beside the binary).
enum Assets {
  /// Light and dark, readable down to a phone's width, visible focus, no inline styles (the CSP forbids them).
  static let css = String(decoding: PackageResources.dashboard_css, as: UTF8.self)

  /// Progressive enhancement: forms post without leaving the page, live progress from Server-Sent Events,
  /// filters. It builds no markup: it swaps in what the server's templates render.
  static let javascript = String(decoding: PackageResources.dashboard_js, as: UTF8.self)
}
