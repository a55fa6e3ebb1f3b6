Pod::Spec.new do |s|
  s.name = "Account"
  s.version = "0.3.0"
  s.summary = "Sign in, the reader's profile and the subscription."

  s.description = <<-DESC
Account signs readers in, shows and edits their profile and sells the subscription.
                  DESC

  s.homepage = "https://example.com/newsapp"
  s.license = { :type => "MIT", :file => "LICENSE" }
  s.author = { "NewsApp" => "mobile@example.com" }
  s.source = { :git => "https://example.com/newsapp/account.git", :tag => s.version.to_s }

  s.ios.deployment_target = "13.0"
  s.swift_versions = ["5.7", "5.9"]

  s.source_files = "Sources/**/*.swift"
  s.resources = "Sources/**/*.{xib,storyboard,strings,xcassets}"

  s.dependency "AccountIO"

  s.dependency "Boardy/ModulePlugin"
  s.dependency "SiFUtilities"
end
