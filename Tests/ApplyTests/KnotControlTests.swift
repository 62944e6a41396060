import Apply
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

@Suite("Knot Resolver's control socket")
struct KnotControlTests {
  @Test("A socket where nothing listens: a named error that says what to check")
  func nothingListens() throws {
    let directory = try TemporaryDirectory(prefix: "knot-control")
    defer { directory.remove() }
    let path = directory.file("control/1").path
    #expect {
      try KnotControl(path: path).send("cache.clear()")
    } throws: { error in
      (error as? KnotControl.Failure)?.localizedDescription.contains("nothing listens there") == true
    }
  }

  @Test("Against a real kresd: a Lua expression's result comes back (the reload itself is in the interop matrix)")
  func realKresd() async throws {
    let directory = try TemporaryDirectory(prefix: "knot-control")
    defer { directory.remove() }
    try await DNSServerProcess.withCatchAll(directory: directory.url) { catchAll in
      try await DNSServerProcess.withKnot(luaConfig: nil, forwarder: catchAll.port, directory: directory.url) {
        server in
        let socket = DNSServerProcess.knotControlSocket(port: server.port, pid: server.pid, directory: directory.url)
        let reply = try KnotControl(path: socket.path).send("return 6 * 7")
        #expect(reply.contains("42"), "\(reply)")
      }
    }
  }
}
