/// The data of a resource record, decoded for the types a blocker meets and raw for the rest.
public enum RecordData: Sendable, Hashable {
  /// An IPv4 address (type A).
  case a(IPv4Address)
  /// An IPv6 address (type AAAA).
  case aaaa(IPv6Address)
  /// The canonical name the owner is an alias of (type CNAME).
  case cname(String)
  /// A name server (type NS).
  case ns(String)
  /// A domain name pointer (type PTR).
  case ptr(String)
  /// A mail exchange and its preference (type MX).
  case mx(preference: UInt16, exchange: String)
  /// A zone's start of authority (type SOA), as an NXDOMAIN's authority section carries it.
  case soa(SOA)
  /// Character strings, each up to 255 bytes (type TXT).
  case txt([[UInt8]])
  /// The bytes of any other type, or of OPT.
  case raw([UInt8])

  /// The fields of an SOA record (RFC 1035 §3.3.13).
  public struct SOA: Sendable, Hashable {
    /// The primary name server.
    public var primary: String
    /// The mailbox of the person responsible, as a name (`hostmaster.example.com`).
    public var mailbox: String
    /// The zone's version.
    public var serial: UInt32
    /// Seconds between secondary refreshes.
    public var refresh: UInt32
    /// Seconds before a failed refresh is retried.
    public var retry: UInt32
    /// Seconds after which a secondary stops answering without a refresh.
    public var expire: UInt32
    /// The TTL of negative answers (RFC 2308).
    public var minimum: UInt32

    /// Creates SOA data.
    public init(
      primary: String, mailbox: String, serial: UInt32, refresh: UInt32, retry: UInt32, expire: UInt32,
      minimum: UInt32
    ) {
      self.primary = primary
      self.mailbox = mailbox
      self.serial = serial
      self.refresh = refresh
      self.retry = retry
      self.expire = expire
      self.minimum = minimum
    }
  }

  /// The record type this data belongs to; nil for `.raw`.
  public var type: RecordType? {
    switch self {
    case .a: .a
    case .aaaa: .aaaa
    case .cname: .cname
    case .ns: .ns
    case .ptr: .ptr
    case .mx: .mx
    case .soa: .soa
    case .txt: .txt
    case .raw: nil
    }
  }

  /// The address of A or AAAA data; nil for other data.
  public var address: IPAddress? {
    switch self {
    case .a(let address): .v4(address)
    case .aaaa(let address): .v6(address)
    default: nil
    }
  }
}
