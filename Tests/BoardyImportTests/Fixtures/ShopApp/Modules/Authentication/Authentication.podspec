Pod::Spec.new do |s|
  s.name             = 'Authentication'
  s.version          = '1.0.0'
  s.summary          = 'Sign in, sign up and the session.'
  s.homepage         = 'https://example.com/shop'
  s.license          = { :type => 'MIT' }
  s.author           = { 'Shop' => 'shop@example.com' }
  s.source           = { :git => 'https://example.com/shop.git', :tag => s.version.to_s }
  s.ios.deployment_target = '13.0'
  s.swift_versions   = '5.9'

  s.source_files = 'Sources/**/*.swift'
  s.dependency 'Boardy', '~> 1.63'

  s.test_spec 'Tests' do |test_spec|
    test_spec.source_files = 'Tests/**/*.{swift}'
  end
end
