import DNS
import TestSupport
import Testing

/// The resolver against `FakeDNSServer`, scripted per query.
@Suite("Resolver against a scripted server")
struct ResolverTests {
  private static let address = Record(name: "a.test", data: .a(IPv4Address("192.0.2.7")!))

  @Test("A plain answer over UDP")
  func answer() async throws {
    let behaviour: FakeDNSServer.Behaviour = {
      [FakeDNSServer.response(to: $0, answers: [Self.address])].map { .bytes($0) }
    }
    try await FakeDNSServer.with(behaviour) { server in
      let (reply, elapsed) = try await timed {
        try await localResolver(server.port).query("a.test", .a, timeout: .seconds(2))
      }
      #expect(reply.addresses.map(\.description) == ["192.0.2.7"])
      #expect(server.requests.map(\.transport) == [.udp])
      _ = elapsed
      // The query as sent: RD set, one question.
      let query = try #require(server.requests.first?.message)
      #expect(query.flags.recursionDesired && query.questions == [Question(name: "a.test", type: .a)])
      _ = try await localResolver(server.port).query("a.test", .a, timeout: .seconds(2))
      #expect(server.requests.count == 2)
    }
  }

  @Test("A truncated UDP answer is asked again over TCP, which answers in full")
  func tcpFallback() async throws {
    let behaviour: FakeDNSServer.Behaviour = { request in
      switch request.transport {
      case .udp: [.bytes(FakeDNSServer.response(to: request, truncated: true))]
      case .tcp: [.bytes(FakeDNSServer.response(to: request, answers: [Self.address, Self.address]))]
      }
    }
    try await FakeDNSServer.with(behaviour) { server in
      let reply = try await localResolver(server.port).query("a.test", .a, timeout: .seconds(2))
      #expect(!reply.flags.truncated)
      #expect(reply.answers.count == 2)
      #expect(server.requests.map(\.transport) == [.udp, .tcp])
      #expect(server.requests[0].bytes == server.requests[1].bytes)
    }
  }

  @Test("TCP replies with the wrong id are skipped too; a TCP connection closed without an answer is unreachable")
  func tcpMismatch() async throws {
    let behaviour: FakeDNSServer.Behaviour = { request in
      switch request.transport {
      case .udp: [.bytes(FakeDNSServer.response(to: request, truncated: true))]
      case .tcp:
        request.message?.questions.first?.name == "closed.test"
          ? [.closeConnection]
          : [
            .bytes(FakeDNSServer.response(to: request, id: request.message!.id &+ 1)),
            .bytes(FakeDNSServer.response(to: request, answers: [Self.address])),
          ]
      }
    }
    try await FakeDNSServer.with(behaviour) { server in
      let reply = try await localResolver(server.port).query("a.test", .a, timeout: .seconds(2))
      #expect(reply.answers == [Self.address])
      await #expect(
        throws: ResolverError.unreachable(
          server: "127.0.0.1:\(server.port)", detail: "it closed the TCP connection without an answer")
      ) {
        try await localResolver(server.port).query("closed.test", .a, timeout: .seconds(2))
      }
    }
  }

  @Test("Replies with the wrong id, the wrong question or from another port are ignored; the right one counts")
  func spoofsIgnored() async throws {
    let behaviour: FakeDNSServer.Behaviour = { request in
      let query = request.message!
      var wrongQuestion = query
      wrongQuestion.questions = [Question(name: "other.test", type: .a)]
      return [
        .bytes(
          FakeDNSServer.response(
            to: request, answers: [Record(name: "a.test", data: .a(.unspecified))], id: query.id &+ 1)),
        .fromOtherPort(FakeDNSServer.response(to: request, answers: [Record(name: "a.test", data: .a(.unspecified))])),
        .bytes(
          FakeDNSServer.response(
            to: FakeDNSServer.Request(transport: .udp, bytes: [], message: wrongQuestion),
            answers: [Record(name: "a.test", data: .a(.unspecified))])),
        .bytes(try! Message(id: query.id, questions: query.questions).encoded()),  // not a response (QR clear)
        .bytes(FakeDNSServer.response(to: request, answers: [Self.address])),
      ]
    }
    try await FakeDNSServer.with(behaviour) { server in
      let reply = try await localResolver(server.port).query("a.test", .a, timeout: .seconds(2))
      #expect(reply.answers == [Self.address])
    }
  }

  @Test("Garbage and then the answer: the answer counts")
  func garbageThenAnswer() async throws {
    let behaviour: FakeDNSServer.Behaviour = {
      [.bytes([1, 2, 3]), .bytes(FakeDNSServer.response(to: $0, answers: [Self.address]))]
    }
    try await FakeDNSServer.with(behaviour) { server in
      let reply = try await localResolver(server.port).query("a.test", .a, timeout: .seconds(2))
      #expect(reply.answers == [Self.address])
    }
  }

  @Test("Only garbage until the deadline: .malformedReply with the decoding error, not .timeout")
  func garbageOnly() async throws {
    let behaviour: FakeDNSServer.Behaviour = { _ in [.bytes([1, 2, 3])] }
    try await FakeDNSServer.with(behaviour) { server in
      let (outcome, elapsed) = await timedQuery(localResolver(server.port), "a.test", .a, timeout: .milliseconds(300))
      #expect(throws: ResolverError.malformedReply(.truncated(offset: 2))) { try outcome.get() }
      #expect(elapsed >= .milliseconds(300), "it waited for the deadline: \(elapsed)")
    }
  }

  @Test("A black hole times out in about the timeout", .timeLimit(.minutes(5)))
  func blackHole() async throws {
    let behaviour: FakeDNSServer.Behaviour = { _ in [] }
    try await FakeDNSServer.with(behaviour) { server in
      let timeout = Duration.milliseconds(500)
      let (outcome, elapsed) = await timedQuery(localResolver(server.port), "a.test", .a, timeout: timeout)
      #expect(throws: ResolverError.timeout(server: "127.0.0.1:\(server.port)", after: timeout)) { try outcome.get() }
      #expect(elapsed >= timeout, "took \(elapsed)")
      #expect(server.requests.count == 1)
    }
  }

  @Test("A truncated answer and a black hole on TCP time out within the one deadline")
  func tcpBlackHole() async throws {
    let behaviour: FakeDNSServer.Behaviour = { request in
      request.transport == .udp ? [.bytes(FakeDNSServer.response(to: request, truncated: true))] : []
    }
    try await FakeDNSServer.with(behaviour) { server in
      let (outcome, elapsed) = await timedQuery(localResolver(server.port), "a.test", .a, timeout: .milliseconds(400))
      #expect(throws: ResolverError.timeout(server: "127.0.0.1:\(server.port)", after: .milliseconds(400))) {
        try outcome.get()
      }
      #expect(elapsed >= .milliseconds(400), "took \(elapsed)")
    }
  }

  @Test("Cancelling the task ends a query at once", .timeLimit(.minutes(5)))
  func cancellation() async throws {
    let behaviour: FakeDNSServer.Behaviour = { _ in [] }
    try await FakeDNSServer.with(behaviour) { server in
      await withTaskGroup(of: Void.self) { group in
        group.addTask {
          await #expect(throws: ResolverError.cancelled) {
            try await localResolver(server.port).query("a.test", .a, timeout: .seconds(30))
          }
        }
        // Cancel once the server has the query: the resolver is then waiting in poll.
        for await _ in server.received { break }
        let start = ContinuousClock.now
        group.cancelAll()
        await group.waitForAll()
        let elapsed = ContinuousClock.now - start
        #expect(elapsed < .seconds(25), "took \(elapsed) against a 30 s timeout")
      }
    }
  }

  @Test("A task already cancelled sends nothing")
  func alreadyCancelled() async throws {
    let behaviour: FakeDNSServer.Behaviour = { _ in [] }
    try await FakeDNSServer.with(behaviour) { server in
      await withTaskGroup(of: Void.self) { group in
        group.cancelAll()
        group.addTask {
          await #expect(throws: ResolverError.cancelled) {
            try await localResolver(server.port).query("a.test", .a, timeout: .seconds(30))
          }
        }
      }
      #expect(server.requests.isEmpty)
    }
  }

  @Test("Nothing listening on the port: .unreachable (ICMP port unreachable), long before the timeout")
  func portUnreachable() async throws {
    let port = try FreePort.forDNS()
    let (outcome, elapsed) = await timedQuery(localResolver(port), "a.test", .a, timeout: .seconds(5))
    #expect(
      throws: ResolverError.unreachable(
        server: "127.0.0.1:\(port)", detail: "connection refused (nothing listens on port \(port))")
    ) { try outcome.get() }
    // `.unreachable`, not `.timeout`: it did not wait for the deadline (wall-clock bounds are left to the
    // benchmark; on a loaded 2-core machine a whole test can stall for seconds).
    _ = elapsed
  }

  @Test("An invalid name is refused before anything is sent")
  func invalidName() async throws {
    await #expect(throws: ResolverError.invalidName("a..test", reason: .emptyLabel)) {
      try await localResolver(53).query("a..test", .a, timeout: .seconds(1))
    }
    await #expect(throws: ResolverError.invalidName("bücher.de", reason: .notASCII)) {
      try await localResolver(53).query("bücher.de", .a, timeout: .seconds(1))
    }
  }

  @Test("An error response without a question section counts; NXDOMAIN is a reply, not an error")
  func errorResponses() async throws {
    let behaviour: FakeDNSServer.Behaviour = { request in
      let query = request.message!
      if query.questions.first?.name == "nx.test" {
        return [.bytes(FakeDNSServer.response(to: request, code: .nxDomain))]
      }
      let bare = Message(id: query.id, flags: Message.Flags(isResponse: true, responseCode: .refused))
      return [.bytes(try! bare.encoded())]
    }
    try await FakeDNSServer.with(behaviour) { server in
      let nx = try await localResolver(server.port).query("nx.test", .a, timeout: .seconds(2))
      #expect(nx.responseCode == .nxDomain)
      let refused = try await localResolver(server.port).query("x.test", .a, timeout: .seconds(2))
      #expect(refused.responseCode == .refused)
    }
  }
}
