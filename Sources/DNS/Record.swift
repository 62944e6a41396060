/// A resource record of a message's answer, authority or additional section.
public struct Record: Sendable, Hashable {
  /// The owner name in presentation form, without the final dot (the root is `.`).
  public var name: String
  /// The record's type; for the data cases with a type of their own, the same as `data.type`.
  public var type: RecordType
  /// The class: 1 (IN) for the Internet; for OPT, the sender's UDP payload size.
  public var `class`: UInt16
  /// How long it may be cached, in seconds.
  public var ttl: UInt32
  /// The record's data.
  public var data: RecordData

  /// Creates a record; the type is the data's own (`.raw` data needs `type`).
  public init(name: String, type: RecordType? = nil, class: UInt16 = 1, ttl: UInt32 = 300, data: RecordData) {
    self.name = name
    self.type = type ?? data.type ?? .other(0)
    self.class = `class`
    self.ttl = ttl
    self.data = data
  }
}
