import Apply
import Testing

@Suite("knot-resolver target (response-policy zone and Lua loader)")
struct KnotResolverTests {
  @Test("A Lua file beside the zone loads it with policy.rpz, quoted for Lua; the control socket reloads it")
  func facts() throws {
    let target = ServerTarget.knotResolver
    #expect(target.loaderPath(output: "/srv/zone") == "/srv/zone.lua")
    let loader = try #require(target.loader(output: #"/odd "dir"\z.rpz"#))
    #expect(loader.contains(#"policy.rpz(policy.DENY, "/odd \"dir\"\\z.rpz", true)"#), "\(loader)")
    // A pass-through goes on to the next rule (policy.FORWARD) instead of ending the chain.
    #expect(loader.contains("if action == policy.PASS then return nil end"))
    #expect(target.instructions(output: "/k/s.rpz").hasPrefix(#"dofile("/k/s.lua")"#))
    #expect(target.defaultReload() == .knotControl(socket: ServerTarget.knotControlSocket, zone: target.defaultOutput))
    #expect(target.kind.reloadSocket?.contains(ServerTarget.knotControlSocket) == true)
    #expect(!target.kind.capabilities.cnameTargets)
  }
}
