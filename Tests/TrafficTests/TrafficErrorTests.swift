import Testing

@testable import Traffic

@Suite("What a failed read of the logs says")
struct TrafficErrorTests {
  @Test("Each error names the bad value and says what to give instead")
  func messages() {
    #expect(TrafficError.badSince("soon").errorDescription?.contains("'soon'") == true)
    #expect(TrafficError.badSince("soon").errorDescription?.contains("24h") == true)
    #expect(
      TrafficError.unreadable(path: "/x.log", reason: "Permission denied").errorDescription?.contains("/x.log") == true)
    #expect(TrafficError.noLogs.errorDescription?.contains("--log KIND:PATH") == true)
  }
}
