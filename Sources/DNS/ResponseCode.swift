/// The outcome a server reports in a response's header (RFC 1035 §4.1.1, the four bits of RCODE).
///
/// Two values are equal when their numbers are: `.other(3)` equals `.nxDomain`.
public enum ResponseCode: Sendable, Hashable, CustomStringConvertible {
  /// No error (0).
  case noError
  /// The server could not interpret the query (1).
  case formErr
  /// The server failed to process the query (2).
  case servFail
  /// The name does not exist (3).
  case nxDomain
  /// The server does not support this kind of query (4).
  case notImp
  /// The server refuses to answer, by policy (5).
  case refused
  /// Any other code, by number (0–15 in the header).
  case other(UInt8)

  /// The code for `rawValue`: a named case when there is one, else `.other`.
  public init(rawValue: UInt8) {
    switch rawValue {
    case 0: self = .noError
    case 1: self = .formErr
    case 2: self = .servFail
    case 3: self = .nxDomain
    case 4: self = .notImp
    case 5: self = .refused
    default: self = .other(rawValue)
    }
  }

  /// The code's number.
  public var rawValue: UInt8 {
    switch self {
    case .noError: 0
    case .formErr: 1
    case .servFail: 2
    case .nxDomain: 3
    case .notImp: 4
    case .refused: 5
    case .other(let value): value
    }
  }

  /// The mnemonic as `dig` prints it (`NOERROR`, `NXDOMAIN`), or `RCODE` and the number.
  public var description: String {
    switch ResponseCode(rawValue: rawValue) {
    case .noError: "NOERROR"
    case .formErr: "FORMERR"
    case .servFail: "SERVFAIL"
    case .nxDomain: "NXDOMAIN"
    case .notImp: "NOTIMP"
    case .refused: "REFUSED"
    case .other(let value): "RCODE\(value)"
    }
  }

  /// Whether the two have the same number.
  public static func == (lhs: ResponseCode, rhs: ResponseCode) -> Bool { lhs.rawValue == rhs.rawValue }

  /// Hashes the number, as equality compares it.
  public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
}
