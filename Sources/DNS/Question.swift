/// An entry of a message's question section: the name, type and class asked for.
public struct Question: Sendable, Hashable {
  /// The name in presentation form, without the final dot (`example.com`; the root is `.`).
  public var name: String
  /// The type asked for.
  public var type: RecordType
  /// The class asked for: 1 (IN) for the Internet.
  public var `class`: UInt16

  /// Creates a question; the class defaults to IN.
  public init(name: String, type: RecordType, class: UInt16 = 1) {
    self.name = name
    self.type = type
    self.class = `class`
  }

  /// Whether `other` asks the same thing, the names compared without regard to ASCII case (a server may
  /// echo the name in other case, RFC 4343).
  public func matches(_ other: Question) -> Bool {
    type == other.type && self.class == other.class && Self.fold(name) == Self.fold(other.name)
  }

  /// The name with ASCII upper-case letters lowered and a final dot dropped.
  private static func fold(_ name: String) -> [UInt8] {
    var bytes = Array(name.utf8).map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
    if bytes.count > 1 && bytes.last == 0x2E && bytes.dropLast().last != 0x5C { bytes.removeLast() }
    return bytes
  }
}
