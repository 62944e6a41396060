import Dashboard
import Testing

@Suite("Dashboard errors")
struct DashboardErrorTests {
  @Test("Every message names the value and says what to do")
  func messages() {
    #expect(DashboardError.tokenRequired(host: "0.0.0.0").errorDescription?.contains("0.0.0.0") == true)
    #expect(DashboardError.weakToken(length: 5).errorDescription?.contains("at least 16") == true)
    #expect(
      DashboardError.alreadyRunning(job: "update").errorDescription
        == "An update is already running: wait for it or cancel it first.")
    #expect(DashboardError.invalidToken.errorDescription?.contains("letters, digits") == true)
    #expect(DashboardError.badRequest("m").errorDescription == "m")
    #expect(DashboardError.notFound("n").errorDescription == "n")
  }
}
