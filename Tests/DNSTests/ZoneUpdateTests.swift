import DNS
import Testing

@Suite("Zone updates: RFC 2136 messages, additions first, 500 changes at most in each")
struct ZoneUpdateTests {
  private static func cname(_ name: String) -> Record { Record(name: name, data: .cname(".")) }

  @Test("One message: opcode 5, the zone as the question (SOA), additions before removals of class NONE and TTL 0")
  func oneMessage() throws {
    let update = ZoneUpdate(
      zone: "sanehosts.rpz", removals: [Self.cname("a.sanehosts.rpz")], additions: [Self.cname("b.sanehosts.rpz")])
    let messages = update.messages(firstID: 7)
    #expect(messages.count == 1)
    let message = try #require(messages.first)
    #expect(message.id == 7 && message.flags.opcode == 5 && !message.flags.isResponse)
    #expect(message.questions == [Question(name: "sanehosts.rpz", type: .soa)])
    #expect(message.authority.map(\.class) == [1, 254] && message.authority.map(\.ttl) == [300, 0])
    #expect(message.authority.map(\.name) == ["b.sanehosts.rpz", "a.sanehosts.rpz"])
    // It encodes and decodes back: the update section travels where the authority section is.
    #expect(try Message(decoding: message.encoded()) == message)
  }

  @Test("1,201 changes are three messages of 500, 500 and 201, ids counting up (wrapping)")
  func batches() {
    let update = ZoneUpdate(
      zone: "z", removals: (0..<700).map { Self.cname("r\($0).z") }, additions: (0..<501).map { Self.cname("a\($0).z") }
    )
    let messages = update.messages(firstID: .max)
    #expect(messages.map(\.authority.count) == [500, 500, 201])
    #expect(messages.map(\.id) == [.max, 0, 1])
    #expect(messages[0].authority.allSatisfy { $0.class == 1 } && messages[1].authority.first?.class == 1)
    #expect(messages[1].authority.last?.class == 254 && messages[2].authority.allSatisfy { $0.class == 254 })
    #expect(!update.isEmpty && ZoneUpdate(zone: "z").isEmpty && ZoneUpdate(zone: "z").messages(firstID: 0).isEmpty)
  }

  @Test(
    "Regression: a name and its *. twin always travel in one message (split, the name was an empty node between the two and BIND let it through for 0.6 s)"
  )
  func twinsTogether() {
    // Sorted as the zone's records are, `*.` owners come before every plain one: 600 removed names put
    // each name 600 records away from its twin, across the 500-change boundary.
    let names = (0..<600).map { "n\($0).parent.z" }
    let removals = (names.map { "*." + $0 } + names).map(Self.cname)
    let update = ZoneUpdate(zone: "z", removals: removals, additions: [Self.cname("*.x.z"), Self.cname("x.z")])
    let messages = update.messages(firstID: 1)
    #expect(messages.map(\.authority.count) == [500, 500, 202])
    #expect(messages.reduce(0) { $0 + $1.authority.count } == 1_202)
    for message in messages {
      let owners = Set(message.authority.map(\.name))
      for owner in owners {
        let twin = owner.hasPrefix("*.") ? String(owner.dropFirst(2)) : "*." + owner
        #expect(owners.contains(twin), "\(owner) went without \(twin)")
      }
    }
    // Additions still come first, each pair whole.
    #expect(messages[0].authority.prefix(2).map(\.name) == ["*.x.z", "x.z"])
    #expect(messages[0].authority.prefix(2).allSatisfy { $0.class == 1 })
  }
}
