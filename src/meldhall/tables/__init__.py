"""meldhall.tables"""
