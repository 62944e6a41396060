import DNS
import Foundation
import Testing

@Suite("TSIG keys: BIND's key statement written and read, messages signed")
struct TransactionKeyTests {
  @Test("A generated key has 32 random bytes and round-trips through its statement")
  func roundTrip() throws {
    let key = TransactionKey.generate(name: "sanehosts-update")
    #expect(key.secret.count == 32)
    #expect(TransactionKey.generate(name: "x").secret != key.secret)
    #expect(key.statement.hasPrefix("key \"sanehosts-update\" {\n  algorithm hmac-sha256;\n  secret \""))
    #expect(try TransactionKey(statement: key.statement) == key)
  }

  @Test("tsig-keygen's own output is read")
  func tsigKeygen() throws {
    let text = """
      key "fleet" {
      \talgorithm hmac-sha256;
      \tsecret "3q2+7w==";
      };
      """
    #expect(try TransactionKey(statement: text) == TransactionKey(name: "fleet", secret: [0xDE, 0xAD, 0xBE, 0xEF]))
  }

  @Test("A statement without a key, with another algorithm or without a secret is named as such")
  func invalid() {
    #expect(throws: TransactionKey.KeyError.invalid("no key \"NAME\" { … } statement")) {
      try TransactionKey(statement: "options { };")
    }
    #expect(throws: TransactionKey.KeyError.invalid("the key k is not hmac-sha256")) {
      try TransactionKey(statement: "key \"k\" { algorithm hmac-md5; secret \"AAAA\"; };")
    }
    #expect(throws: TransactionKey.KeyError.invalid("the key k has no base64 secret")) {
      try TransactionKey(statement: "key \"k\" { algorithm hmac-sha256; secret \"!!\"; };")
    }
    let message = TransactionKey.KeyError.invalid("x").localizedDescription
    #expect(message.contains("tsig-keygen"))
  }

  @Test("A signed message gains one additional record, TSIG, whose MAC is HMAC-SHA256 of message and variables")
  func sign() throws {
    let key = TransactionKey(name: "K", secret: Array("secret".utf8))
    let query = try Message.query(id: 0x1234, name: "a.test", type: .soa)
    let time = Date(timeIntervalSince1970: 1_800_000_000)
    let (signed, mac) = try key.sign(query, at: time)
    #expect(mac.count == 32)
    let decoded = try Message(decoding: signed)
    #expect(decoded.additional.count == 1)
    let tsig = try #require(decoded.additional.first)
    #expect(tsig.name == "k" && tsig.type.rawValue == 250 && tsig.class == 255 && tsig.ttl == 0)
    guard case .raw(let data) = tsig.data else {
      Issue.record("TSIG data not raw")
      return
    }
    // The key name is signed and sent in lower case (RFC 8945 canonical form). hmac-sha256 (13 bytes as a name), then the time: 1,800,000,000 in 48 bits, fudge 300, MAC size 32.
    #expect(Array(data.prefix(13)) == [11] + Array("hmac-sha256".utf8) + [0])
    #expect(Array(data[13..<21]) == [0, 0, 0x6B, 0x49, 0xD2, 0x00, 0x01, 0x2C])
    #expect(Array(data[21..<23]) == [0, 32] && Array(data[23..<55]) == mac)
    #expect(Array(data[55...]) == [0x12, 0x34, 0, 0, 0, 0])
    // Signing again at the same time gives the same MAC; another key or time does not.
    #expect(try key.sign(query, at: time).mac == mac)
    #expect(try key.sign(query, at: time.addingTimeInterval(1)).mac != mac)
    #expect(try TransactionKey(name: "K", secret: Array("other".utf8)).sign(query, at: time).mac != mac)
  }
}
