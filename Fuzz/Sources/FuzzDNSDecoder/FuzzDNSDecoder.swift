import DNS

/// Decodes the input as a DNS message; what decodes is encoded, and the encoding must decode again and
/// encode to the same bytes (a decoded message is always one the encoder can write, or it says why).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  guard let message = try? Message(decoding: bytes) else { return 0 }
  guard let encoded = try? message.encoded() else { return 0 }
  let again: Message
  do {
    again = try Message(decoding: encoded)
  } catch {
    fatalError("a re-encoded message does not decode: \(error)\nmessage: \(message)\nencoded: \(encoded)")
  }
  guard let reencoded = try? again.encoded() else {
    fatalError("a decoded re-encoding cannot be encoded again: \(again)")
  }
  check(reencoded == encoded, "encode(decode(encode(m))) != encode(m) for \(message)")
  return 0
}

/// Traps with the message when the condition fails; unlike `precondition`, the message is kept in
/// release builds, so libFuzzer's crash report says which property broke.
private func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
  if !condition() { fatalError(message()) }
}
