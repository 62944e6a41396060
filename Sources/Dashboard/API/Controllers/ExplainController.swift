import Blocklists
import Hummingbird
import UseCases

/// `/api/why` (why names are blocked) and `/api/overlap` (names per list, shared and unique).
struct ExplainController {
  let dashboard: Dashboard

  func addRoutes(to group: RouterGroup<DashboardContext>) {
    let dashboard = self.dashboard
    // Why a name is blocked. One name: debounced (the Why? box sends a request per keystroke; a burst
    // runs one explanation, of its newest text). Several names: answered at once.
    group.get("why") { request, _ in
      let names = request.uri.queryParameters[values: "name"].map(String.init).filter { !$0.isEmpty }
      guard !names.isEmpty else {
        throw DashboardError.badRequest("Give a name: /api/dashboard.why?name=ads.example.com")
      }
      if names.count == 1 { return JSONResponse.make(try await dashboard.why.answer(names[0])) }
      return JSONResponse.make(try await dashboard.why.answerNow(names))
    }
    group.get("overlap") { _, _ in JSONResponse.make(try await Overlap.report(in: dashboard.store)) }
  }
}
