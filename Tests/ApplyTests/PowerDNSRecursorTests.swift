import Apply
import Testing

@Suite("pdns-recursor target (response-policy zone and Lua loader)")
struct PowerDNSRecursorTests {
  @Test("A Lua file beside the zone loads it with rpzFile; rec_control reloads it; the socket is its socket-dir")
  func facts() throws {
    let target = ServerTarget.pdnsRecursor
    #expect(target.loaderPath(output: "/etc/powerdns/sanehosts.rpz") == "/etc/powerdns/sanehosts.lua")
    let loader = try #require(target.loader(output: "/etc/powerdns/sanehosts.rpz"))
    #expect(loader.contains(#"rpzFile("/etc/powerdns/sanehosts.rpz", {policyName="sanehosts"})"#))
    #expect(target.instructions(output: "/p/z.rpz").hasPrefix(#"dofile("/p/z.lua")"#))
    #expect(target.defaultReload() == .recControl(socketDirectory: nil))
    #expect(target.kind.reloadSocket?.contains("socket-dir") == true)
    #expect(target.checker == "named-checkzone")
  }
}
