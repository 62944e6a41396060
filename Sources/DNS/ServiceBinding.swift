/// The data of an SVCB (type 64) or HTTPS (type 65) record (RFC 9460), as far as a blocker check needs
/// it: the priority, the target name and the address hints a client may connect to without asking for A
/// or AAAA (so a blocked name whose HTTPS record carries them still reaches its real address).
public struct ServiceBinding: Sendable, Hashable {
  /// The HTTPS record type (65).
  public static let https = RecordType.other(65)
  /// The SVCB record type (64).
  public static let svcb = RecordType.other(64)

  /// 0 for alias mode (the target names another service), else the service's priority.
  public var priority: UInt16
  /// The target name, presentation text without the final dot; `.` means the owner name itself.
  public var target: String
  /// The `ipv4hint` addresses (key 4).
  public var ipv4Hints: [IPv4Address]
  /// The `ipv6hint` addresses (key 6).
  public var ipv6Hints: [IPv6Address]

  /// Every hint, IPv4 first.
  public var hints: [IPAddress] { ipv4Hints.map(IPAddress.v4) + ipv6Hints.map(IPAddress.v6) }

  /// Creates service binding data.
  public init(priority: UInt16, target: String, ipv4Hints: [IPv4Address] = [], ipv6Hints: [IPv6Address] = []) {
    self.priority = priority
    self.target = target
    self.ipv4Hints = ipv4Hints
    self.ipv6Hints = ipv6Hints
  }

  /// Decodes a record's data; nil when it is not well-formed (a compressed or overlong target name, a
  /// parameter running past the end, a hint whose length is not a multiple of the address size).
  public init?(data: [UInt8]) {
    guard data.count >= 3 else { return nil }
    priority = UInt16(data[0]) << 8 | UInt16(data[1])
    // The target: uncompressed labels (RFC 9460 §2.2).
    var offset = 2
    var labels: [ArraySlice<UInt8>] = []
    var length = 1
    while true {
      guard offset < data.count else { return nil }
      let count = Int(data[offset])
      if count == 0 {
        offset += 1
        break
      }
      guard count <= 63, data.count - offset - 1 >= count else { return nil }
      length += count + 1
      guard length <= 255 else { return nil }
      labels.append(data[(offset + 1)..<(offset + 1 + count)])
      offset += 1 + count
    }
    target = Name.text(labels)
    ipv4Hints = []
    ipv6Hints = []
    while offset < data.count {
      guard data.count - offset >= 4 else { return nil }
      let key = UInt16(data[offset]) << 8 | UInt16(data[offset + 1])
      let size = Int(data[offset + 2]) << 8 | Int(data[offset + 3])
      offset += 4
      guard data.count - offset >= size else { return nil }
      let value = data[offset..<(offset + size)]
      offset += size
      switch key {
      case 4:
        guard size % 4 == 0 else { return nil }
        ipv4Hints += stride(from: value.startIndex, to: value.endIndex, by: 4).compactMap {
          IPv4Address(bytes: value[$0..<($0 + 4)])
        }
      case 6:
        guard size % 16 == 0 else { return nil }
        ipv6Hints += stride(from: value.startIndex, to: value.endIndex, by: 16).compactMap {
          IPv6Address(bytes: value[$0..<($0 + 16)])
        }
      default:
        continue
      }
    }
  }
}

extension Record {
  /// The service binding of an SVCB or HTTPS record; nil for other records or malformed data.
  public var serviceBinding: ServiceBinding? {
    guard type == ServiceBinding.https || type == ServiceBinding.svcb, case .raw(let bytes) = data else { return nil }
    return ServiceBinding(data: bytes)
  }
}
