/// Punycode (RFC 3492): the ASCII form of a Unicode label, as used after `xn--` in international names.
enum Punycode {
  private static let base = 36
  private static let tMin = 1
  private static let tMax = 26
  private static let skew = 38
  private static let damp = 700

  /// Encodes the scalars of one label; `nil` if the encoding would overflow.
  static func encode(_ scalars: [UInt32]) -> [UInt8]? {
    var output: [UInt8] = scalars.filter { $0 < 0x80 }.map { UInt8($0) }
    let basic = output.count
    var handled = basic
    if basic > 0 { output.append(UInt8(ascii: "-")) }
    var n: UInt32 = 0x80
    var delta = 0
    var bias = 72
    while handled < scalars.count {
      guard let next = scalars.filter({ $0 >= n }).min() else { return nil }
      let (step, overflow) = Int(next - n).multipliedReportingOverflow(by: handled + 1)
      guard !overflow else { return nil }
      delta += step
      n = next
      for scalar in scalars {
        if scalar < n { delta += 1 }
        guard scalar == n else { continue }
        var q = delta
        var k = base
        while true {
          let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
          if q < t { break }
          output.append(digit(t + (q - t) % (base - t)))
          q = (q - t) / (base - t)
          k += base
        }
        output.append(digit(q))
        bias = adapt(delta, points: handled + 1, first: handled == basic)
        delta = 0
        handled += 1
      }
      delta += 1
      n += 1
    }
    return output
  }

  /// Decodes one label's ASCII form (without `xn--`) to its scalars; `nil` if it is not valid Punycode.
  static func decode(_ input: [UInt8]) -> [UInt32]? {
    var output: [UInt32] = []
    var position = 0
    if let dash = input.lastIndex(of: UInt8(ascii: "-")) {
      guard input[..<dash].allSatisfy({ $0 < 0x80 }) else { return nil }
      output = input[..<dash].map { UInt32($0) }
      position = dash + 1
    }
    var n: UInt32 = 0x80
    var i = 0
    var bias = 72
    while position < input.count {
      let oldI = i
      var w = 1
      var k = base
      while true {
        guard position < input.count, let digit = value(input[position]) else { return nil }
        position += 1
        let (product, overflow) = digit.multipliedReportingOverflow(by: w)
        guard !overflow, i <= Int(Int32.max) - product else { return nil }
        i += product
        let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
        if digit < t { break }
        let (next, wOverflow) = w.multipliedReportingOverflow(by: base - t)
        guard !wOverflow, next <= Int(Int32.max) else { return nil }
        w = next
        k += base
      }
      bias = adapt(i - oldI, points: output.count + 1, first: oldI == 0)
      let (scalar, over) = Int(n).addingReportingOverflow(i / (output.count + 1))
      guard !over, scalar <= 0x10FFFF, !(0xD800...0xDFFF).contains(scalar) else { return nil }
      n = UInt32(scalar)
      i %= output.count + 1
      output.insert(n, at: i)
      i += 1
    }
    return output
  }

  private static func value(_ byte: UInt8) -> Int? {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"): Int(byte - UInt8(ascii: "a"))
    case UInt8(ascii: "A")...UInt8(ascii: "Z"): Int(byte - UInt8(ascii: "A"))
    case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0")) + 26
    default: nil
    }
  }

  private static func digit(_ value: Int) -> UInt8 {
    value < 26 ? UInt8(ascii: "a") + UInt8(value) : UInt8(ascii: "0") + UInt8(value - 26)
  }

  private static func adapt(_ delta: Int, points: Int, first: Bool) -> Int {
    var delta = first ? delta / damp : delta / 2
    delta += delta / points
    var k = 0
    while delta > ((base - tMin) * tMax) / 2 {
      delta /= base - tMin
      k += base
    }
    return k + (base - tMin + 1) * delta / (delta + skew)
  }
}
