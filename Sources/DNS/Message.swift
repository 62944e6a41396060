/// A DNS message (RFC 1035 §4): a header and four sections, decoded from and encoded to the wire format.
public struct Message: Sendable, Hashable {
  /// The id that pairs a response with its query.
  public var id: UInt16
  /// The header's flags and response code.
  public var flags: Flags
  /// What is asked.
  public var questions: [Question]
  /// The records that answer it.
  public var answers: [Record]
  /// Records naming the authority (an NXDOMAIN's SOA).
  public var authority: [Record]
  /// Other records (EDNS OPT, glue).
  public var additional: [Record]

  /// The header's second and third bytes: flags, opcode and response code.
  public struct Flags: Sendable, Hashable {
    /// Whether the message is a response (QR).
    public var isResponse: Bool
    /// The kind of query (0: a standard query).
    public var opcode: UInt8
    /// Whether the answer is authoritative (AA).
    public var authoritative: Bool
    /// Whether the message was truncated to fit a UDP datagram (TC): ask again over TCP.
    public var truncated: Bool
    /// Whether the query asks the server to recurse (RD).
    public var recursionDesired: Bool
    /// Whether the server offers recursion (RA).
    public var recursionAvailable: Bool
    /// Whether the server validated the answer with DNSSEC (AD, RFC 4035).
    public var authenticData: Bool
    /// Whether the query asks the server not to validate (CD, RFC 4035).
    public var checkingDisabled: Bool
    /// The response code.
    public var responseCode: ResponseCode

    /// Creates flags; all clear by default.
    public init(
      isResponse: Bool = false, opcode: UInt8 = 0, authoritative: Bool = false, truncated: Bool = false,
      recursionDesired: Bool = false, recursionAvailable: Bool = false, authenticData: Bool = false,
      checkingDisabled: Bool = false, responseCode: ResponseCode = .noError
    ) {
      self.isResponse = isResponse
      self.opcode = opcode & 0x0F
      self.authoritative = authoritative
      self.truncated = truncated
      self.recursionDesired = recursionDesired
      self.recursionAvailable = recursionAvailable
      self.authenticData = authenticData
      self.checkingDisabled = checkingDisabled
      self.responseCode = ResponseCode(rawValue: responseCode.rawValue & 0x0F)
    }

    /// The flags of these two header bytes (the Z bit is dropped).
    init(wire: UInt16) {
      self.init(
        isResponse: wire & 0x8000 != 0, opcode: UInt8((wire >> 11) & 0x0F), authoritative: wire & 0x0400 != 0,
        truncated: wire & 0x0200 != 0, recursionDesired: wire & 0x0100 != 0, recursionAvailable: wire & 0x0080 != 0,
        authenticData: wire & 0x0020 != 0, checkingDisabled: wire & 0x0010 != 0,
        responseCode: ResponseCode(rawValue: UInt8(wire & 0x000F)))
    }

    /// The two header bytes.
    var wire: UInt16 {
      var value = UInt16(opcode & 0x0F) << 11 | UInt16(responseCode.rawValue & 0x0F)
      if isResponse { value |= 0x8000 }
      if authoritative { value |= 0x0400 }
      if truncated { value |= 0x0200 }
      if recursionDesired { value |= 0x0100 }
      if recursionAvailable { value |= 0x0080 }
      if authenticData { value |= 0x0020 }
      if checkingDisabled { value |= 0x0010 }
      return value
    }
  }

  /// Creates a message.
  public init(
    id: UInt16, flags: Flags = Flags(), questions: [Question] = [], answers: [Record] = [], authority: [Record] = [],
    additional: [Record] = []
  ) {
    self.id = id
    self.flags = flags
    self.questions = questions
    self.answers = answers
    self.authority = authority
    self.additional = additional
  }

  /// The response code.
  public var responseCode: ResponseCode { flags.responseCode }

  /// The addresses of the A and AAAA records in the answer section, in order (a CNAME chain's final
  /// addresses included, whatever their owner name).
  public var addresses: [IPAddress] { answers.compactMap(\.data.address) }
}
