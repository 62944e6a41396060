import Foundation

/// Why bytes are not a DNS message, or a message cannot be encoded.
public enum MessageError: Error, Sendable, Hashable {
  /// The data ends inside the field that starts at this offset (or a count promises more than there is).
  case truncated(offset: Int)
  /// The compression pointer at this offset does not point strictly before every earlier part of its name
  /// (it points forwards, to itself, into a loop or past the end), or a name has too many pointers.
  case badPointer(offset: Int)
  /// The label length byte at this offset is 64–191: over the 63-byte limit and not a pointer.
  case labelTooLong(offset: Int)
  /// The name starting at this offset is over 255 bytes on the wire.
  case nameTooLong(offset: Int)
  /// The data of the record whose data starts at this offset does not fit its type or its length.
  case badRecordData(offset: Int, type: RecordType)
  /// A name to encode is not a valid domain name.
  case invalidName(String, reason: NameProblem)
  /// A record's data to encode is over 65,535 bytes.
  case recordTooLong(name: String, length: Int)

  /// What is wrong with a name to encode.
  public enum NameProblem: Sendable, Hashable, CustomStringConvertible {
    /// It is empty.
    case empty
    /// It has an empty label (`a..b`, `.a`).
    case emptyLabel
    /// This label is over 63 bytes.
    case labelTooLong(String)
    /// It is this many bytes on the wire, over 255.
    case tooLong(Int)
    /// It has a character outside printable ASCII.
    case notASCII
    /// A backslash escape is not `\X` or `\DDD` (000–255).
    case badEscape

    /// The problem, in words.
    public var description: String {
      switch self {
      case .empty: "it is empty"
      case .emptyLabel: "it has an empty label (two dots in a row, or a leading dot)"
      case .labelTooLong(let label): "the label “\(label)” is \(label.utf8.count) bytes, over the limit of 63"
      case .tooLong(let length): "it is \(length) bytes on the wire, over the limit of 255"
      case .notASCII: "it has characters outside printable ASCII; write an internationalized name in punycode (xn--…)"
      case .badEscape: "a backslash escape is not \\X or \\DDD with DDD at most 255"
      }
    }
  }
}

extension MessageError: LocalizedError {
  /// What is wrong, naming the offset or value concerned.
  public var errorDescription: String? {
    switch self {
    case .truncated(let offset):
      "The DNS message ends inside the field at byte \(offset)."
    case .badPointer(let offset):
      "The name compression pointer at byte \(offset) does not point backwards to an earlier name."
    case .labelTooLong(let offset):
      "The label at byte \(offset) is longer than 63 bytes."
    case .nameTooLong(let offset):
      "The name at byte \(offset) is longer than 255 bytes."
    case .badRecordData(let offset, let type):
      "The \(type) record data at byte \(offset) does not match its length."
    case .invalidName(let name, let reason):
      "“\(name)” is not a valid DNS name: \(reason)."
    case .recordTooLong(let name, let length):
      "The record data for \(name) is \(length) bytes, over the limit of 65,535."
    }
  }

  /// What to do about it.
  public var recoverySuggestion: String? {
    switch self {
    case .invalidName:
      "Use labels of 1–63 printable ASCII characters separated by dots, at most 253 characters in all."
    case .recordTooLong:
      "Split the data over several records."
    default:
      "The server sent a damaged or hostile reply: check that the address is a DNS server's."
    }
  }
}
