import Foundation

/// The rules a token must pass to become a name to block, applied to raw bytes.
///
/// A valid name, after lower-casing and dropping one trailing dot:
/// - is at most 253 characters, in labels of 1–63 characters separated by dots;
/// - uses only `a-z`, `0-9`, `-` and `_` (underscores appear in real lists and in real DNS names,
///   such as `_dmarc` or `ad_server`; they are accepted except in the top label);
/// - has no label starting or ending with `-`;
/// - has at least two labels (a bare TLD such as `com` would block a whole TLD);
/// - has a top label that is a possible TLD: it starts with a letter, or is punycode (`xn--…`), so an
///   IP address can never pass as a name; every real TLD (`.host`, `.local`, `.zip`…) is kept;
/// - is not one of the machine's own names (`localhost`, `broadcasthost`, `ip6-localhost`…);
/// - is not a name of the local network or a special-use name (`SpecialUse`): `*.localhost`, `*.local`,
///   `*.home.arpa`, `*.internal`, names under a top-level domain that is not in the Public Suffix List
///   (`.lan`, `.corp`…), and `*.test`, `*.example`, `*.invalid`, `*.onion` (a user's deny rule may still
///   name them: `normalize(_:allowingSpecialUse:)`);
/// - does not start with `0.0.0.0` or `127.0.0.1` (an address glued to a name by a broken converter).
///
/// Unicode names are converted to punycode (IDNA) and then checked by the same rules. Names that are
/// public suffixes (`co.uk`, `servebbs.net`) are valid here: the renderer decides where they may go.
public enum NameRules {
  /// The longest name, in bytes.
  public static let maximumLength = 253
  /// The longest label, in bytes.
  public static let maximumLabelLength = 63

  /// The machine's own names, never blocked (the 13 Pi-hole skips, and a few more).
  public static let localNames: Set<String> = [
    "localhost", "localhost.localdomain", "local", "broadcasthost", "localdomain", "ip6-localhost",
    "ip6-loopback", "ip6-localnet", "ip6-mcastprefix", "ip6-allnodes", "ip6-allrouters", "ip6-allhosts",
    "ip6-allhosts", "0.0.0.0", "localhost4", "localhost6", "localhost4.localdomain4",
    "localhost6.localdomain6",
  ]

  /// The outcome of checking one token.
  public enum Outcome: Equatable, Sendable {
    /// A valid name of this many bytes, written to the output buffer.
    case valid(Int)
    /// The token is not a name, for this reason.
    case rejected(RejectReason)
  }

  /// Checks a token and writes its normalised form (lower case, no trailing dot, punycode) to `output`.
  ///
  /// `output` must hold at least 256 bytes.
  public static func normalize(_ token: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>)
    -> Outcome
  {
    var hash: UInt64?
    return normalize(token, into: output, hash: &hash)
  }

  /// Checks a token and writes its normalised form to `output`, like `normalize(_:into:)`; sets `hash` to
  /// the name's `NameHash` when every byte took the eight-byte path (most names), else to nil.
  ///
  /// The hash's steps are the eight-byte words just written, still in cache: hashing each name again
  /// afterwards was 4 % of a compile.
  static func normalize(
    _ token: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>, hash: inout UInt64?,
    specialUse: Bool = false
  ) -> Outcome {
    hash = nil
    guard let source = token.baseAddress, let target = output.baseAddress else { return .rejected(.emptyLabel) }
    var count = token.count
    if count > 0 && source[count - 1] == UInt8(ascii: ".") { count -= 1 }
    if count == 0 { return .rejected(.emptyLabel) }
    if count > maximumLength {
      return token.contains { $0 >= 0x80 }
        ? internationalize(token, into: output, specialUse: specialUse) : .rejected(.nameTooLong)
    }

    var scan = NameScan(source: source, target: target, count: count)
    var index = 0
    // The name's hash, step by step over the words written, while only whole words were (see `NameHash`).
    var state = NameHash.start(count)
    var hashing = true
    while index < count {
      if index + 8 <= count {
        let (taken, reason) = scan.wordStep(at: index, fresh: SWAR.high)
        if let reason { return .rejected(reason) }
        if taken {
          if hashing { state = NameHash.step(state, UnsafeRawPointer(target + index).loadUnaligned(as: UInt64.self)) }
          index += 8
          continue
        }
      } else if count >= 8 {
        // The last bytes, as the last eight of the name: those already done are left out of the checks.
        let remaining = count - index
        let (taken, reason) = scan.wordStep(at: count - 8, fresh: SWAR.high << UInt64(8 * (8 - remaining)))
        if let reason { return .rejected(reason) }
        if taken {
          if hashing {
            let last = UnsafeRawPointer(target + count - 8).loadUnaligned(as: UInt64.self)
            state = NameHash.step(state, last >> UInt64(8 * (8 - remaining)))
          }
          index = count
          continue
        }
      }
      // Otherwise byte by byte, up to and including the first byte that is not a letter or digit.
      hashing = false
      switch scan.byteStep(at: &index) {
      case .next: break
      case .internationalized: return internationalize(token, into: output, specialUse: specialUse)
      case .rejected(let reason): return .rejected(reason)
      }
    }
    if let reason = scan.finalReason(specialUse: specialUse) { return .rejected(reason) }
    if hashing { hash = NameHash.mix(state) }
    return .valid(count)
  }

  /// Checks a name given as a string; returns the normalised name or the reason it is not one.
  ///
  /// With `allowingSpecialUse`, a name of the local network or a special-use name passes (a user's own
  /// deny rule, which may block what no list may).
  public static func normalize(_ text: String, allowingSpecialUse: Bool = false) -> Result<String, RejectReason> {
    var bytes = Array(text.utf8)
    return bytes.withUnsafeMutableBufferPointer { token in
      withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 256) { output -> Result<String, RejectReason> in
        var hash: UInt64?
        return switch normalize(UnsafeBufferPointer(token), into: output, hash: &hash, specialUse: allowingSpecialUse) {
        case .valid(let count): .success(String(decoding: output[0..<count], as: UTF8.self))
        case .rejected(let reason): .failure(reason)
        }
      }
    }
  }

  /// A normalised name with each `xn--` label shown in Unicode (`xn--bcher-kva.example` → `bücher.example`);
  /// a label that does not decode stays as it is.
  public static func unicode(_ name: String) -> String {
    name.split(separator: ".", omittingEmptySubsequences: false).map { label -> String in
      guard label.hasPrefix("xn--"), let scalars = Punycode.decode(Array(label.utf8.dropFirst(4))),
        scalars.contains(where: { $0 >= 0x80 })
      else { return String(label) }
      var text = ""
      for value in scalars {
        // Control and format characters (and what is no character) keep the label in its ASCII form:
        // shown, they could hide or fake what follows.
        guard let scalar = Unicode.Scalar(value), !(value < 0x20 || (0x7F...0x9F).contains(value)),
          scalar.properties.generalCategory != .format, scalar.properties.generalCategory != .control
        else { return String(label) }
        text.unicodeScalars.append(scalar)
      }
      return text
    }.joined(separator: ".")
  }

  /// The local names as bytes, indexed by length, for a check without building a string.
  private static let localNamesByLength: [[[UInt8]]] = {
    var table = [[[UInt8]]](repeating: [], count: 32)
    for name in localNames { table[name.utf8.count].append(Array(name.utf8)) }
    return table
  }()

  static func isLocalName(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
    // Every local name starts with "lo", "br" or "ip": two byte compares rule out almost all names.
    guard name.count >= 5, name.count < 32 else { return false }
    let first = name[0]
    let second = name[1]
    guard
      (first == UInt8(ascii: "l") && second == UInt8(ascii: "o"))
        || (first == UInt8(ascii: "b") && second == UInt8(ascii: "r"))
        || (first == UInt8(ascii: "i") && second == UInt8(ascii: "p"))
    else { return false }
    return localNamesByLength[name.count].contains { $0.elementsEqual(name) }
  }

  /// `0.0.0.0ads.example` or `127.0.0.1ads.example`: an address and a name run together. (A name such as
  /// `0.0.0.0.ads.example`, with a dot after the address, is a real if odd name and is kept.)
  static func hasGluedAddress(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
    for prefix in gluedPrefixes where name.count > prefix.count && name.starts(with: prefix) {
      return name[prefix.count] != UInt8(ascii: ".")
    }
    return false
  }

  private static let gluedPrefixes = [Array("0.0.0.0".utf8), Array("127.0.0.1".utf8)]

  /// Converts a Unicode name to punycode, then checks the result.
  ///
  /// Labels made only of letters and digits that already are their own NFKC case fold (`é`, `ü`, `日`)
  /// are encoded here directly; anything else (capitals, compatibility forms, combining marks, symbols)
  /// goes through Foundation's full IDNA mapping, which is correct but about 50 times slower.
  private static func internationalize(
    _ token: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>, specialUse: Bool
  )
    -> Outcome
  {
    guard let text = String(validating: token, as: UTF8.self) else { return .rejected(.binaryData) }
    let trimmed = text.hasSuffix(".") ? String(text.dropLast()) : text
    guard !trimmed.isEmpty else { return .rejected(.emptyLabel) }
    guard let ascii = fastPunycode(trimmed) ?? foundationPunycode(trimmed) else {
      return .rejected(.invalidInternationalName)
    }
    var bytes = ascii
    return bytes.withUnsafeMutableBufferPointer { buffer in
      var hash: UInt64?
      let outcome = normalize(UnsafeBufferPointer(buffer), into: output, hash: &hash, specialUse: specialUse)
      if case .rejected(let reason) = outcome, reason == .invalidCharacter {
        return .rejected(.invalidInternationalName)
      }
      return outcome
    }
  }

  /// The punycode form when every label is simple enough to need no IDNA mapping; otherwise `nil`.
  static func fastPunycode(_ name: String) -> [UInt8]? {
    var result: [UInt8] = []
    for label in name.unicodeScalars.split(separator: ".", omittingEmptySubsequences: false) {
      if !result.isEmpty { result.append(UInt8(ascii: ".")) }
      var scalars: [UInt32] = []
      var unicode = false
      for scalar in label {
        if scalar.isASCII {
          let byte = UInt8(scalar.value)
          scalars.append(UInt32(byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte))
          continue
        }
        guard isLatin1LowercaseLetter(scalar) || isOwnCaseFoldedLetterOrDigit(scalar) else { return nil }
        scalars.append(scalar.value)
        unicode = true
      }
      if unicode {
        // IDNA reserves "--" in the third and fourth places (for prefixes like "xn--").
        if scalars.count >= 4 && scalars[2] == 0x2D && scalars[3] == 0x2D { return nil }
        guard let encoded = Punycode.encode(scalars) else { return nil }
        result.append(contentsOf: Array("xn--".utf8) + encoded)
      } else {
        result.append(contentsOf: scalars.map { UInt8($0) })
      }
    }
    return result
  }

  /// Whether a letter or decimal digit is its own NFKC case fold and combines with nothing: such a
  /// scalar is kept as it is by IDNA's mapping.
  static func isOwnCaseFoldedLetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
    let properties = scalar.properties
    return !properties.changesWhenNFKCCaseFolded && properties.canonicalCombiningClass == .notReordered
      && (properties.isAlphabetic || properties.numericType == .decimal)
  }

  /// `à` to `ÿ` but `÷`: the lowercase Latin-1 letters, which `isOwnCaseFoldedLetterOrDigit` accepts,
  /// known without looking up Unicode properties (a lookup took most of a Unicode name's time).
  @inline(__always)
  static func isLatin1LowercaseLetter(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value >= 0xE0 && scalar.value <= 0xFF && scalar.value != 0xF7
  }

  /// The punycode form by Foundation's IDNA support (full UTS 46 mapping), or `nil` if it has none.
  private static func foundationPunycode(_ name: String) -> [UInt8]? {
    guard !name.contains(where: { $0.isWhitespace || $0 == "/" || $0 == ":" || $0 == "@" || $0 == "?" || $0 == "#" }),
      let host = URL(string: "http://\(name.lowercased())/")?.host(percentEncoded: false), host.isASCII
    else { return nil }
    return Array(host.utf8)
  }
}

/// Byte-parallel tests on eight ASCII bytes in a 64-bit word ("SIMD within a register").
enum SWAR {
  static let ones: UInt64 = 0x0101_0101_0101_0101
  static let high: UInt64 = 0x8080_8080_8080_8080

  /// The high bit of each byte set when that byte is in `low...high`; valid when every byte is below 0x80.
  @inline(__always)
  static func inRange(_ word: UInt64, _ low: UInt8, _ top: UInt8) -> UInt64 {
    let atLeastLow = word &+ ones &* UInt64(0x80 - low)
    let aboveTop = word &+ ones &* UInt64(0x7F - top)
    return atLeastLow & ~aboveTop & high
  }
}

extension NameRules {
  /// Whether a renderer may write these bytes as a name: 1 to 253 bytes of lower-case letters, digits,
  /// `-` and `_` in dot-separated labels of 1 to 63 bytes, as `normalize` writes every name. The last
  /// check before a name reaches a file a server parses: a name from anywhere else (a block set file or
  /// rule changed on disk) that holds a quote, a space, a slash or a newline would add a statement there.
  @inline(__always)
  public static func isRenderable(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
    guard !name.isEmpty, name.count <= maximumLength else { return false }
    var label = 0
    for byte in name {
      let kind = ByteClass.table[Int(byte)]
      if kind & (ByteClass.lower | ByteClass.digit | ByteClass.hyphen | ByteClass.underscore) != 0 {
        label += 1
        if label > maximumLabelLength { return false }
      } else if kind == ByteClass.dot {
        if label == 0 { return false }
        label = 0
      } else {
        return false
      }
    }
    return label > 0
  }

  /// `isRenderable` for a name as text.
  public static func isRenderable(_ name: String) -> Bool {
    var name = name
    return name.withUTF8 { isRenderable($0) }
  }
}

/// What each byte can be in a name, as bits, for a table lookup instead of a chain of comparisons.
enum ByteClass {
  static let lower: UInt8 = 1
  static let upper: UInt8 = 2
  static let digit: UInt8 = 4
  static let plain: UInt8 = lower | upper | digit
  static let dot: UInt8 = 8
  static let hyphen: UInt8 = 16
  static let underscore: UInt8 = 32
  static let high: UInt8 = 64
  static let invalid: UInt8 = 128

  /// The class of every byte value; allocated once and never freed.
  nonisolated(unsafe) static let table: UnsafePointer<UInt8> = {
    let table = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
    for byte in 0..<256 {
      table[byte] =
        switch byte {
        case 0x61...0x7A: lower
        case 0x41...0x5A: upper
        case 0x30...0x39: digit
        case 0x2E: dot
        case 0x2D: hyphen
        case 0x5F: underscore
        case 0x80...: high
        default: invalid
        }
    }
    return UnsafePointer(table)
  }()
}

extension String {
  fileprivate var isASCII: Bool { utf8.allSatisfy { $0 < 0x80 } }
}

/// The state of `NameRules.normalize` as it goes through a name's bytes: where the current label starts,
/// how many labels there are, which kinds of byte were seen. Its steps are inlined into `normalize`.
struct NameScan {
  let source: UnsafePointer<UInt8>
  let target: UnsafeMutablePointer<UInt8>
  let count: Int
  var labelStart = 0
  var labels = 1
  var underscoreLabel = 0
  var seen: UInt8 = 0

  /// What a byte-by-byte step found.
  enum ByteStep {
    /// The byte was written; go on.
    case next
    /// A byte above 0x7F: the name is internationalized.
    case internationalized
    /// Not a name.
    case rejected(RejectReason)
  }

  init(source: UnsafePointer<UInt8>, target: UnsafeMutablePointer<UInt8>, count: Int) {
    self.source = source
    self.target = target
    self.count = count
  }

  /// Closes the label ending at the dot at `position`: it must be 1–63 bytes and not end with `-`.
  @inline(__always)
  mutating func endLabel(at position: Int) -> RejectReason? {
    let length = position - labelStart
    if length == 0 { return .emptyLabel }
    if length > NameRules.maximumLabelLength { return .labelTooLong }
    if target[position - 1] == UInt8(ascii: "-") { return .hyphenAtLabelEdge }
    labelStart = position + 1
    labels += 1
    return nil
  }

  /// Checks and copies the eight bytes at `position` whose high bits `fresh` marks (the others were done
  /// before), when they are all letters, digits, dots or hyphens (most of every name): capitals are
  /// folded, and in byte order each dot ends a label (checked for its length, and that it does not end
  /// with a hyphen) and a hyphen that starts a label is refused. Not taken when a byte needs the
  /// byte-by-byte path.
  @inline(__always)
  mutating func wordStep(at position: Int, fresh: UInt64) -> (taken: Bool, reason: RejectReason?) {
    let word = UnsafeRawPointer(source + position).loadUnaligned(as: UInt64.self)
    let letters = SWAR.inRange(word, UInt8(ascii: "a"), UInt8(ascii: "z"))
    let capitals = SWAR.inRange(word, UInt8(ascii: "A"), UInt8(ascii: "Z"))
    let digits = SWAR.inRange(word, UInt8(ascii: "0"), UInt8(ascii: "9"))
    let dots = SWAR.inRange(word, UInt8(ascii: "."), UInt8(ascii: "."))
    let hyphens = SWAR.inRange(word, UInt8(ascii: "-"), UInt8(ascii: "-"))
    // The bytes done before are plain ASCII (anything else ended the check), so the ranges hold for all.
    guard word & SWAR.high & fresh == 0, (letters | capitals | digits | dots | hyphens) & fresh == fresh else {
      return (false, nil)
    }
    // Capitals fold to lower case (0x20 added); bytes done before are stored again as they were written.
    UnsafeMutableRawPointer(target + position).storeBytes(of: word | (capitals >> 2), as: UInt64.self)
    seen |=
      ((letters | capitals) & fresh != 0 ? ByteClass.lower : 0) | (digits & fresh != 0 ? ByteClass.digit : 0)
      | (hyphens & fresh != 0 ? ByteClass.hyphen : 0)
    var startingHyphens = hyphens & fresh & (dots << 8)
    if position == labelStart { startingHyphens |= hyphens & fresh & 0x80 }
    var events = (dots & fresh) | startingHyphens
    while events != 0 {
      let lowest = events & (0 &- events)
      if lowest & dots == 0 { return (true, .hyphenAtLabelEdge) }
      if let reason = endLabel(at: position + lowest.trailingZeroBitCount >> 3) { return (true, reason) }
      events &= events - 1
    }
    return (true, nil)
  }

  /// Copies bytes one by one from `index`, up to and including the first that is not a letter or digit.
  /// (The table is fetched here, not for every name: a lazy global costs a call each time, 1 % of a
  /// compile.)
  @inline(__always)
  mutating func byteStep(at index: inout Int) -> ByteStep {
    let classes = ByteClass.table
    while index < count {
      let byte = source[index]
      let kind = classes[Int(byte)]
      if kind & ByteClass.plain != 0 {
        // Capitals are folded without a branch.
        target[index] = byte | ((kind & ByteClass.upper) << 4)
        seen |= kind
        index += 1
        continue
      }
      if kind == ByteClass.dot {
        if let reason = endLabel(at: index) { return .rejected(reason) }
      } else if kind == ByteClass.hyphen {
        seen |= kind
        if index == labelStart { return .rejected(.hyphenAtLabelEdge) }
      } else if kind == ByteClass.underscore {
        seen |= kind
        underscoreLabel = labels
      } else if kind == ByteClass.high {
        return .internationalized
      } else if byte < 0x20 || byte == 0x7F {
        return .rejected(.binaryData)
      } else {
        let onlyDigits = seen & ~ByteClass.digit == 0
        return .rejected(onlyDigits && byte == UInt8(ascii: ":") ? .ipAddress : .invalidCharacter)
      }
      target[index] = byte
      index += 1
      break
    }
    return .next
  }

  /// Why the whole name, once copied, is not one: its last label, a name of digits and dots, a single or
  /// local label, an invalid top label, a glued address, a special-use name (unless `specialUse`).
  @inline(__always)
  func finalReason(specialUse: Bool) -> RejectReason? {
    let allDigitsAndDots = seen & ~ByteClass.digit == 0
    if labelStart == count { return .emptyLabel }
    if count - labelStart > NameRules.maximumLabelLength { return .labelTooLong }
    if target[count - 1] == UInt8(ascii: "-") { return .hyphenAtLabelEdge }
    if allDigitsAndDots { return labels == 4 ? .ipAddress : .invalidTopLabel }
    let name = UnsafeBufferPointer(start: UnsafePointer(target), count: count)
    if labels == 1 { return NameRules.isLocalName(name) ? .localName : .bareTopLevelDomain }
    let top = target[labelStart]
    if top &- UInt8(ascii: "a") >= 26 || underscoreLabel == labels { return .invalidTopLabel }
    let first = target[0]
    if (first == UInt8(ascii: "0") || first == UInt8(ascii: "1")) && NameRules.hasGluedAddress(name) {
      return .gluedAddress
    }
    if NameRules.isLocalName(name) { return .localName }
    if !specialUse, let reason = SpecialUse.reason(name, top: labelStart) { return reason }
    return nil
  }
}
