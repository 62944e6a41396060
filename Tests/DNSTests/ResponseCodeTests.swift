import DNS
import Testing

@Suite("Response codes")
struct ResponseCodeTests {
  @Test("Numbers map to the named cases and back, printed as dig prints them")
  func numbers() {
    let named: [(ResponseCode, UInt8, String)] = [
      (.noError, 0, "NOERROR"), (.formErr, 1, "FORMERR"), (.servFail, 2, "SERVFAIL"), (.nxDomain, 3, "NXDOMAIN"),
      (.notImp, 4, "NOTIMP"), (.refused, 5, "REFUSED"),
    ]
    for (code, number, text) in named {
      #expect(ResponseCode(rawValue: number) == code)
      #expect(code.rawValue == number)
      #expect(code.description == text)
    }
    #expect(ResponseCode(rawValue: 9) == .other(9))
    #expect(ResponseCode.other(9).description == "RCODE9")
    #expect(ResponseCode.other(3) == .nxDomain)
  }
}
