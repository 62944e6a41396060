import Apply
import Testing

@Suite("unbound target (local zones)")
struct UnboundTests {
  @Test("An include line loads it; unbound-control reloads it; a transparent zone is the exception")
  func facts() {
    let target = ServerTarget.unbound
    #expect(target.instructions(output: "/a/b.conf") == #"include: "/a/b.conf""#)
    #expect(target.defaultReload() == .firstOf([.unboundControl, .systemd(unit: "unbound")]))
    #expect(target.checker == "unbound-checkconf" && target.checkerPackage == "unbound")
    #expect(target.kind.capabilities.exceptions && target.leaks.joined().contains("transparent zone"))
    #expect(target.settleAfterReload == .seconds(2))
  }
}
