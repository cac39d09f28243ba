"""meldhall.store"""
