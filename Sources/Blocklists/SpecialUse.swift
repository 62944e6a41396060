/// Names no list may block: the local network's and those reserved for special use.
///
/// - `localhost` and `*.localhost` (RFC 6761 §6.3: always the loopback address);
/// - `*.local` (multicast DNS, RFC 6762: a hosts entry would override the printer's own answer);
/// - `*.home.arpa` (RFC 8375: home networks) and `*.internal` (ICANN, reserved for private use);
/// - the top-level names home networks use (`.lan`, `.home`, `.corp`, `.localdomain`…), and any other
///   top-level domain that is not in the Public Suffix List (`.alt`, a file's `.vtt`, a typo's `.comm`):
///   no public name lives there (`unknownTopLevelDomain`);
/// - `*.test`, `*.example`, `*.invalid` (RFC 6761 §6.2, §6.5, §6.4) and `*.onion` (RFC 7686: resolvers
///   answer NXDOMAIN themselves).
///
/// `example.com`, `example.org` and `example.net` are ordinary names here: the peers' own tests use them.
public enum SpecialUse {
  /// The reason a normalised name may not be blocked from a list, or nil when it may.
  public static func reason(_ name: String) -> RejectReason? {
    var bytes = Array(name.utf8)
    return bytes.withUnsafeMutableBufferPointer { buffer in
      let top = (buffer.lastIndex(of: UInt8(ascii: ".")) ?? -1) + 1
      return reason(UnsafeBufferPointer(buffer), top: top)
    }
  }

  /// The reason for a normalised name given as bytes whose top label starts at `top`.
  @inline(__always)
  static func reason(_ name: UnsafeBufferPointer<UInt8>, top: Int) -> RejectReason? {
    let length = name.count - top
    if length <= 8 {
      var packed: UInt64 = 0
      for index in 0..<length { packed |= UInt64(name[top + index]) << UInt64(8 * index) }
      // Most names: one compare each, before the set.
      if packed == com || packed == net || packed == org { return nil }
      if tables.short.contains(mixed(packed)) {
        if packed == onion { return .reservedName }
        if packed == arpa && isHomeArpa(name) { return .localNetworkName }
        return nil
      }
    } else if tables.long.contains(String(decoding: UnsafeBufferPointer(rebasing: name[top...]), as: UTF8.self)) {
      return nil
    }
    let label = String(decoding: UnsafeBufferPointer(rebasing: name[top...]), as: UTF8.self)
    if reservedTopLevel.contains(label) { return .reservedName }
    return localTopLevel.contains(label) ? .localNetworkName : .unknownTopLevelDomain
  }

  /// Top-level names of local networks: the special-use and private ones, and those routers and
  /// operating systems use by default (none is in the Public Suffix List).
  static let localTopLevel: Set<String> = [
    "localhost", "local", "internal", "lan", "home", "corp", "localdomain", "intranet", "private", "intra",
    "domain", "workgroup", "router", "fritz", "mshome", "hub",
  ]

  /// Top-level domains reserved by RFC 6761 for tests and documentation (`onion` is in the list).
  static let reservedTopLevel: Set<String> = ["test", "example", "invalid"]

  /// `home.arpa` or a name under it.
  private static func isHomeArpa(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
    let suffix = homeArpa
    guard name.count >= suffix.count, name.suffix(suffix.count).elementsEqual(suffix) else { return false }
    return name.count == suffix.count || name[name.count - suffix.count - 1] == UInt8(ascii: ".")
  }

  private static let homeArpa = Array("home.arpa".utf8)
  // Packed labels as literals (`pack("com")`, checked by the tests): a computed global is initialised
  // lazily, and each read of one went through `swift_once`, 2 % of compiling 5M lines.
  static let com: UInt64 = 0x6D_6F63
  static let net: UInt64 = 0x74_656E
  static let org: UInt64 = 0x67_726F
  static let onion: UInt64 = 0x6E_6F69_6E6F
  static let arpa: UInt64 = 0x6170_7261

  /// A label of up to eight bytes as one number: byte `i` in bits `8i..<8i+8`.
  static func pack(_ label: String) -> UInt64 {
    var packed: UInt64 = 0
    for (index, byte) in label.utf8.prefix(8).enumerated() { packed |= UInt64(byte) << UInt64(8 * index) }
    return packed
  }

  /// A packed label with its bits spread, as a `HashFilter` wants its keys (a packed label's low bits
  /// are its first letter): a multiply and a shift where `Set<UInt64>` ran SipHash, 2.5 % of a compile.
  @inline(__always)
  static func mixed(_ packed: UInt64) -> UInt64 {
    let product = packed &* 0x9E37_79B9_7F4A_7C15
    return product ^ (product >> 29)
  }

  /// The Public Suffix List's top-level domains (the last label of every rule): those of up to eight
  /// bytes packed and `mixed`, the longer ones as text. Read as bytes (split into `Substring`s, the
  /// 9,949 rules took milliseconds of every compile that met a name outside com, net and org).
  static let tables: (short: HashFilter, long: Set<String>) = {
    var short = Set<UInt64>()
    var long = Set<String>()
    PublicSuffixList.scan(PublicSuffixList.bundledRules) { _, rule in
      let start = (rule.lastIndex(of: UInt8(ascii: ".")) ?? -1) + 1
      let top = UnsafeBufferPointer(rebasing: rule[start...])
      guard !top.isEmpty, !(top.count == 1 && top[0] == UInt8(ascii: "*")) else { return }
      if top.count <= 8 {
        var packed: UInt64 = 0
        for index in 0..<top.count { packed |= UInt64(top[index]) << UInt64(8 * index) }
        short.insert(packed)
      } else {
        long.insert(String(decoding: top, as: UTF8.self))
      }
    }
    return (HashFilter(short.map(mixed)), long)
  }()
}
