import Foundation
import HTTPTypes
import Hummingbird

/// The frame of every page: head, navigation, main, and the security headers.
enum Layout {
  /// The navigation: path and label.
  static let sections: [(path: String, label: String)] = [
    ("/", "Overview"), ("/sources", "Sources"), ("/overlap", "Overlap"), ("/traffic", "Traffic"), ("/why", "Why?"),
    ("/test", "Test"),
    ("/history", "History"), ("/apply", "Apply"),
  ]

  /// A whole page as a response. Scripts and styles come only from this server (no inline script, no CDN).
  static func page(
    title: String, path: String, csrf: String, body: HTML, status: HTTPResponse.Status = .ok
  ) -> Response {
    let html = HTML()
    html.raw("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">")
    html.raw("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
    html.raw("<meta name=\"color-scheme\" content=\"light dark\">")
    html.raw("<meta name=\"csrf-token\" content=\"\(HTML.escape(csrf))\">")
    html.raw("<title>").text(title).raw(" · SaneHosts</title>")
    html.raw("<link rel=\"stylesheet\" href=\"/static/style.css\"><script src=\"/static/app.js\" defer></script>")
    html.raw("</head><body><a class=\"skip\" href=\"#main\">Skip to content</a>")
    html.raw("<header><span class=\"brand\">SaneHosts</span><nav aria-label=\"Main\"><ul>")
    for section in sections {
      let current = section.path == path ? " aria-current=\"page\"" : ""
      html.raw("<li><a href=\"\(section.path)\"\(current)>\(section.label)</a></li>")
    }
    html.raw("</ul></nav></header><main id=\"main\">")
    html.raw("<div id=\"flash\" role=\"alert\" aria-live=\"assertive\" hidden></div>")
    html.raw("<div id=\"notice\" role=\"status\" aria-live=\"polite\" hidden></div>")
    html.append(body)
    html.raw("</main><footer>SaneHosts dashboard · <a href=\"/api/status\">JSON API</a></footer></body></html>")
    return Response(
      status: status, headers: securityHeaders(type: "text/html; charset=utf-8"),
      body: .init(byteBuffer: ByteBuffer(string: html.output)))
  }

  /// Headers every page and asset gets: a strict content security policy, no framing, no sniffing.
  static func securityHeaders(type: String) -> HTTPFields {
    [
      .contentType: type,
      .cacheControl: "no-store",
      .contentSecurityPolicy:
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
      HTTPField.Name("X-Content-Type-Options")!: "nosniff",
      HTTPField.Name("X-Frame-Options")!: "DENY",
      HTTPField.Name("Referrer-Policy")!: "no-referrer",
    ]
  }

  /// A hidden CSRF field for a plain form.
  static func csrfField(_ csrf: String) -> String {
    "<input type=\"hidden\" name=\"csrf\" value=\"\(HTML.escape(csrf))\">"
  }

  /// "3 h ago", "2 days ago", "never".
  static func age(_ date: Date?, now: Date = Date()) -> String {
    guard let date else { return "never" }
    let seconds = max(0, now.timeIntervalSince(date))
    switch seconds {
    case ..<90: return "just now"
    case ..<5400: return "\(Int(seconds / 60)) min ago"
    case ..<129_600: return "\(Int(seconds / 3600)) h ago"
    default: return "\(Int(seconds / 86_400)) days ago"
    }
  }

  /// A date for people, in UTC: 2026-11-22 23:30.
  static func date(_ date: Date) -> String {
    date.formatted(
      Date.VerbatimFormatStyle(
        format:
          "\(year: .defaultDigits)-\(month: .twoDigits)-\(day: .twoDigits) \(hour: .twoDigits(clock: .twentyFourHour, hourCycle: .zeroBased)):\(minute: .twoDigits)",
        timeZone: TimeZone(identifier: "UTC")!, calendar: Calendar(identifier: .gregorian))) + " UTC"
  }
}
