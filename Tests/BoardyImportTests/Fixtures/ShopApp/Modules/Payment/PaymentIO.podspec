Pod::Spec.new do |spec|
  spec.name         = "PaymentIO"
  spec.version      = "1.0.0"
  spec.summary      = "Payment's public interface."
  spec.source       = { :git => "https://example.com/shop.git", :tag => spec.version.to_s }
  spec.source_files = "Sources/IO/*.swift"
  spec.dependency "Boardy"
end
