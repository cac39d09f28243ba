"""meldhall.server"""
