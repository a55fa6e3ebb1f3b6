Pod::Spec.new do |s|
  s.name = "AccountIO"
  s.version = "0.3.0"
  s.summary = "The public interface of Account: ids, inputs and outputs."

  s.description = <<-DESC
Other modules import AccountIO to ask for a login, open the profile or put the paywall in front of a screen.
                  DESC

  s.homepage = "https://example.com/newsapp"
  s.license = { :type => "MIT", :file => "LICENSE" }
  s.author = { "NewsApp" => "mobile@example.com" }
  s.source = { :git => "https://example.com/newsapp/account.git", :tag => s.version.to_s }

  s.ios.deployment_target = "13.0"
  s.swift_versions = ["5.7", "5.9"]

  s.source_files = "IO/**/*.swift"

  s.dependency "Boardy"
end
