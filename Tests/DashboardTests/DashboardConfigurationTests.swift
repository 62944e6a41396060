import Dashboard
import Foundation
import Store
import Testing

@Suite("Dashboard configuration")
struct DashboardConfigurationTests {
  @Test(
    "Loopback means this machine only",
    arguments: [
      ("127.0.0.1", true), ("127.8.9.10", true), ("localhost", true), ("::1", true), ("[::1]", true),
      ("app.localhost", true), ("0.0.0.0", false), ("192.168.1.2", false), ("::", false), ("127.0.0", false),
      ("evil.website", false), ("127.0.0.1.evil.website", false),
    ])
  func loopback(host: String, expected: Bool) {
    #expect(DashboardConfiguration.isLoopback(host) == expected)
  }

  @Test("Defaults: 127.0.0.1:8080, /etc/hosts, ten backups, drop-ins in their usual places")
  func defaults() {
    let configuration = DashboardConfiguration(data: DataDirectory(url: URL(fileURLWithPath: "/tmp/x")))
    #expect(configuration.host == "127.0.0.1" && configuration.port == 8080 && configuration.isLoopback)
    #expect(configuration.hostsFile == "/etc/hosts" && configuration.keepBackups == 10)
    #expect(configuration.dropInDirectory == nil && configuration.token == nil)
  }
}
