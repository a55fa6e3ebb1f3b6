Pod::Spec.new do |spec|
  spec.name         = "Payment"
  spec.version      = "1.0.0"
  spec.summary      = "Paying, receipts and refunds."
  spec.source       = { :git => "https://example.com/shop.git", :tag => spec.version.to_s }
  spec.source_files = ["Sources/Boards/**/*.{swift,h}"]
  spec.dependency "PaymentIO"
  spec.dependency "Boardy"
end
