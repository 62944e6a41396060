import Hummingbird

/// `/api/status` (the overview) and `/api/session` (the CSRF token for scripts on this machine).
struct StatusController {
  let dashboard: Dashboard

  func addRoutes(to group: RouterGroup<DashboardContext>) {
    let dashboard = self.dashboard
    group.get("status") { _, _ in JSONResponse.make(try await dashboard.overview()) }
    // The CSRF token for scripts on this machine (the same one every page carries; no CORS, so other
    // sites cannot read it).
    group.get("session") { _, _ in JSONResponse.make(["csrf": dashboard.csrf]) }
  }
}
