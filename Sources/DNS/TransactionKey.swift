import Crypto
import Foundation

/// A shared secret that signs DNS messages (TSIG, RFC 8945) with HMAC-SHA256: what a primary asks of the
/// secondaries that transfer its zone and of whoever updates it.
///
/// The key's name and secret are the same on both ends; BIND reads them from a `key "NAME" { … };`
/// statement (`statement`), unbound and PowerDNS Recursor from their own settings.
public struct TransactionKey: Sendable, Hashable {
  /// The key's name, a domain name (`sanehosts-transfer`).
  public var name: String
  /// The secret, 32 random bytes when generated.
  public var secret: [UInt8]

  /// The only algorithm written and read: HMAC-SHA256, which BIND, unbound and PowerDNS all take.
  public static let algorithm = "hmac-sha256"
  /// How far the signer's clock may be from the server's (RFC 8945 recommends 300 s).
  static let fudge: UInt16 = 300

  /// A key named `name` with `secret`.
  public init(name: String, secret: [UInt8]) {
    self.name = name
    self.secret = secret
  }

  /// A new key named `name` with 32 random bytes of secret.
  public static func generate(name: String) -> TransactionKey {
    var generator = SystemRandomNumberGenerator()
    return TransactionKey(name: name, secret: (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
  }

  /// The secret in base64, as the servers' configurations write it.
  public var secretText: String { Data(secret).base64EncodedString() }

  /// BIND's `key` statement for this key (also what `nsupdate -k` reads).
  public var statement: String {
    "key \"\(name)\" {\n  algorithm \(Self.algorithm);\n  secret \"\(secretText)\";\n};\n"
  }

  /// Reads the first `key "NAME" { algorithm hmac-sha256; secret "BASE64"; };` statement of `text` (a file
  /// `statement` wrote, or BIND's `tsig-keygen` output); throws `.invalid` naming what is missing.
  public init(statement text: String) throws(KeyError) {
    guard let keyword = text.range(of: "key \""), let close = text[keyword.upperBound...].firstIndex(of: "\"") else {
      throw .invalid("no key \"NAME\" { … } statement")
    }
    let name = String(text[keyword.upperBound..<close])
    let body = text[close...]
    guard let algorithm = Self.value(of: "algorithm", in: body), algorithm.lowercased() == Self.algorithm else {
      throw .invalid("the key \(name) is not \(Self.algorithm)")
    }
    guard let secretText = Self.value(of: "secret", in: body), let secret = Data(base64Encoded: secretText),
      !secret.isEmpty
    else { throw .invalid("the key \(name) has no base64 secret") }
    self.init(name: name, secret: Array(secret))
  }

  /// The value after `field` up to the next `;`, without quotes.
  private static func value(of field: String, in text: Substring) -> String? {
    guard let start = text.range(of: field + " ") ?? text.range(of: field + "\t") else { return nil }
    let rest = text[start.upperBound...]
    guard let end = rest.firstIndex(of: ";") else { return nil }
    return rest[..<end].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
  }

  /// Why a key statement cannot be read.
  public enum KeyError: Error, Sendable, Hashable, LocalizedError {
    /// The text holds no usable key statement.
    case invalid(String)

    public var errorDescription: String? {
      switch self {
      case .invalid(let problem):
        "The key file cannot be read: \(problem). Write it as key \"NAME\" { algorithm hmac-sha256; secret \"BASE64\"; }; (tsig-keygen's form)."
      }
    }
  }

  /// `message` (wire format, its additional count not yet counting the signature) with a TSIG record
  /// appended that signs it at `time`, and the MAC (a signed reply's MAC covers it).
  public func sign(_ message: [UInt8], at time: Date) throws(MessageError) -> (bytes: [UInt8], mac: [UInt8]) {
    guard message.count >= 12 else { throw .truncated(offset: message.count) }
    let seconds = UInt64(max(0, time.timeIntervalSince1970))
    let keyName = try Self.canonical(name)
    let algorithmName = try Self.canonical(Self.algorithm)
    var timers: [UInt8] = (0..<6).reversed().map { UInt8(truncatingIfNeeded: seconds >> (8 * UInt64($0))) }
    timers += [UInt8(Self.fudge >> 8), UInt8(Self.fudge & 0xFF)]
    // RFC 8945 §4.3.3: the message, then the key name, class ANY, TTL 0, algorithm, times, error 0, no other data.
    var digest = message
    digest += keyName + [0, 255, 0, 0, 0, 0] + algorithmName + timers + [0, 0, 0, 0]
    let mac = Array(HMAC<SHA256>.authenticationCode(for: digest, using: SymmetricKey(data: secret)))

    var data = algorithmName + timers
    data += [UInt8(mac.count >> 8), UInt8(mac.count & 0xFF)] + mac
    data += [message[0], message[1], 0, 0, 0, 0]  // original id, error, other length
    var signed = message
    signed += keyName + [0, 250, 0, 255, 0, 0, 0, 0, UInt8(data.count >> 8), UInt8(data.count & 0xFF)] + data
    let additional = (Int(message[10]) << 8 | Int(message[11])) + 1
    signed[10] = UInt8(additional >> 8)
    signed[11] = UInt8(additional & 0xFF)
    return (signed, mac)
  }

  /// A name in the canonical wire form RFC 8945 signs: labels in lower case, uncompressed.
  private static func canonical(_ name: String) throws(MessageError) -> [UInt8] {
    var bytes: [UInt8] = []
    for label in try Name.labels(name) {
      bytes.append(UInt8(label.count))
      bytes += label.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
    }
    return bytes + [0]
  }
}

extension TransactionKey {
  /// Every readable `key "NAME" { … };` statement in `text`, in order (a configuration holding several).
  public static func statements(in text: String) -> [TransactionKey] {
    var keys: [TransactionKey] = []
    var rest = Substring(text)
    while let start = rest.range(of: "key \"") {
      let statement = rest[start.lowerBound...]
      guard let end = statement.range(of: "};") else { break }
      if let key = try? TransactionKey(statement: String(statement[..<end.upperBound])) { keys.append(key) }
      rest = statement[end.upperBound...]
    }
    return keys
  }
}
