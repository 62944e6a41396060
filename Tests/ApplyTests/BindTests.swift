import Apply
import Testing

@Suite("bind target (response-policy zone)")
struct BindTests {
  @Test("Two lines in named.conf load the zone; rndc reloads it; BIND settles longer (it loads in the background)")
  func facts() {
    let target = ServerTarget.bind
    #expect(
      target.instructions(output: "/var/lib/bind/db.sanehosts.rpz") == """
        response-policy { zone "sanehosts.rpz"; };  // inside the options { } block
        zone "sanehosts.rpz" { type master; file "/var/lib/bind/db.sanehosts.rpz"; };
        """)
    #expect(target.defaultReload() == .firstOf([.rndc(zone: "sanehosts.rpz"), .systemd(unit: "named")]))
    #expect(target.settleAfterReload == .seconds(10))
    #expect(target.leaks.isEmpty && target.kind.capabilities.cnameTargets)
    #expect(target.isRPZ && target.fileExtension == "rpz" && target.loaderPath(output: "/x.rpz") == nil)
  }
}
