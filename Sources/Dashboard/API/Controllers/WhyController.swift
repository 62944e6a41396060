import Hummingbird
import UseCases

/// `/api/why`: why names are blocked (every list, line and rule).
struct WhyController: Sendable {
  /// The debounced searches.
  let why: WhySearch

  /// `GET /?name=N…`. One name: debounced (the Why? box sends a request per keystroke; a burst runs one
  /// explanation, of its newest text). Several names: answered at once.
  var routes: RouteCollection<DashboardContext> {
    let routes = RouteCollection(context: DashboardContext.self)
    routes.get { request, _ in
      let names = request.uri.queryParameters[values: "name"].map(String.init).filter { !$0.isEmpty }
      guard !names.isEmpty else {
        throw DashboardError.badRequest("Give a name: /api/why?name=ads.example.com")
      }
      if names.count == 1 { return JSONResponse.make(try await why.answer(names[0])) }
      return JSONResponse.make(try await why.answerNow(names))
    }
    return routes
  }
}
