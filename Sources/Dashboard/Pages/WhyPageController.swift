import Blocklists
import Foundation
import Hummingbird
import UseCases

/// Why? (`/why`, `why.mustache`): explains a name (every list, line and rule). The script asks for the
/// answer alone as you type (`?fragment=why-result`, debounced on the server: a burst of keystrokes runs
/// one explanation, of its newest text, which `data-answered` names).
struct WhyPageController: Sendable {
  /// The debounced searches.
  let why: WhySearch
  /// The templates.
  let renderer: PageRenderer

  /// `GET /?name=N[&fragment=why-result]`.
  var routes: RouteCollection<DashboardContext> {
    let routes = RouteCollection(context: DashboardContext.self)
    routes.get { request, _ in
      let query = request.uri.queryParameters["name"].map(String.init)?.trimmingCharacters(in: .whitespaces) ?? ""
      let live = request.fragment == "why-result"
      var page = Page(query: query, answer: nil, error: nil)
      if !query.isEmpty {
        do {
          page = Page(
            query: query, answer: live ? try await why.answer(query) : try await why.answerNow([query]), error: nil)
        } catch {
          let payload = ErrorPayload.from(error).0
          page = Page(
            query: query, answer: nil,
            error: [payload.error, payload.suggestion].compactMap { $0 }.joined(separator: " "))
        }
      }
      if live { return renderer.fragment("why-result", model: page) }
      return renderer.page("why", title: "Why?", section: "/why", model: page)
    }
    return routes
  }

  /// One name's explanation.
  struct Card {
    struct Listing {
      var source: String
      var lists: String
      var format: String?
      var line: String
      var text: String
    }
    struct Rule {
      var kind: String
      var rule: String
      var parent: String?
      var decides: Bool
    }

    var verdict: String
    var name: String
    var unicode: String?
    var summary: String
    var invalid: Bool
    var noListing: String?
    var hasListings: Bool
    var listings: [Listing]
    var hasRules: Bool
    var rules: [Rule]
    var publicSuffix: Bool
    var outputs: String

    /// The card of an explanation in a profile.
    init(_ explanation: Explanation, profile: String) {
      verdict = explanation.verdict.rawValue
      name = explanation.name ?? explanation.query
      unicode = explanation.unicode
      summary = explanation.summary
      invalid = explanation.verdict == .invalid
      noListing = explanation.listings.isEmpty ? "Listed by no source of profile \(profile)." : nil
      hasListings = !explanation.listings.isEmpty
      listings = explanation.listings.map { listing in
        Listing(
          source: listing.source, lists: listing.exact ? "the name" : "parent \(listing.matched)",
          format: listing.format, line: listing.line.map(\.grouped) ?? "–", text: listing.text ?? "")
      }
      hasRules = !explanation.rules.isEmpty
      rules = explanation.rules.map { rule in
        Rule(
          kind: rule.allows ? "allow" : "deny", rule: rule.rule,
          parent: rule.matched == explanation.name ? nil : rule.matched, decides: rule.decides)
      }
      publicSuffix = explanation.publicSuffix
      outputs = explanation.outputGroups.map { "\($0.formats.joined(separator: ", ")): \($0.how)" }
        .joined(separator: "; ")
    }
  }

  /// What `why.mustache` and `why-result.mustache` show.
  struct Page {
    var query: String
    /// The text the answer is for (the newest of a burst of keystrokes; else the text asked).
    var answered: String
    var whyError: String?
    var noCopies: Bool
    var unreadable: String?
    var changedSinceCompile: Bool
    var explanations: [Card]

    /// The page for the text in the box, its answer or the error that stopped it.
    init(query: String, answer: Explainer.Answer?, error: String?) {
      self.query = query
      answered = answer?.names.first?.query ?? query
      whyError = error
      noCopies = answer.map { $0.sources.isEmpty } ?? false
      unreadable = answer.flatMap { $0.unreadable.isEmpty ? nil : $0.unreadable.joined(separator: ", ") }
      changedSinceCompile = answer.map { !$0.compiledCurrent && !$0.sources.isEmpty } ?? false
      explanations = answer.map { answer in answer.names.map { Card($0, profile: answer.profile) } } ?? []
    }
  }
}
